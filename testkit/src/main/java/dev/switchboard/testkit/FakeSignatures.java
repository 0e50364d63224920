package dev.switchboard.testkit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The fake's thinking signatures: deterministic, self-verifying, and shaped like Anthropic's (standard
 * base64, so {@code +}, {@code /} and {@code =} appear and a gateway that re-encodes them is caught).
 * A signature carries the signed text, so a block echoed with {@code display: omitted} (empty text) still
 * verifies, as Anthropic's encrypted signatures do.
 *
 * <p>Format: {@code fakesig.<base64 of the text>.<16 hex digits of SHA-256 over a fixed key and the text>}.
 *
 * <p>The Responses dialect's encrypted reasoning ({@code encrypted_content}) is built the same way under
 * its own prefix, {@code fakeenc.}, so neither provider accepts the other's: like OpenAI, the Responses
 * dialect refuses encrypted content it did not issue.
 */
final class FakeSignatures {

    static final String PREFIX = "fakesig.";
    static final String ENCRYPTED_PREFIX = "fakeenc.";

    private FakeSignatures() {
    }

    static String sign(String thinking) {
        return PREFIX + Base64.getEncoder().encodeToString(thinking.getBytes(StandardCharsets.UTF_8)) + "." + mac(thinking);
    }

    /** The Responses dialect's {@code encrypted_content} for a reasoning trace. */
    static String encrypt(String reasoning) {
        return ENCRYPTED_PREFIX + Base64.getEncoder().encodeToString(reasoning.getBytes(StandardCharsets.UTF_8)) + "."
                + mac(reasoning);
    }

    /** Why echoed {@code encrypted_content} would be refused: not issued by this fake, or altered. */
    static Optional<String> encryptedProblem(String encrypted) {
        if (!encrypted.startsWith(ENCRYPTED_PREFIX)) {
            return Optional.of("Encrypted content could not be decrypted or parsed.");
        }
        String[] parts = encrypted.substring(ENCRYPTED_PREFIX.length()).split("\\.", -1);
        try {
            String reasoning = new String(Base64.getDecoder().decode(parts[0]), StandardCharsets.UTF_8);
            return parts.length == 2 && mac(reasoning).equals(parts[1]) ? Optional.empty()
                    : Optional.of("Encrypted content could not be verified.");
        } catch (IllegalArgumentException e) {
            return Optional.of("Encrypted content could not be decrypted or parsed.");
        }
    }

    /**
     * Why an echoed thinking block would be refused, if it would: a missing signature, or a signature of
     * this fake that was altered or does not belong to the text beside it. Signatures this fake did not
     * issue (recorded from a real provider) are accepted; the fake cannot check them.
     */
    static Optional<String> problem(String thinking, String signature) {
        if (signature.isEmpty()) {
            return Optional.of("signature: Field required");
        }
        if (!signature.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = signature.substring(PREFIX.length()).split("\\.", -1);
        String signed;
        try {
            signed = parts.length == 2 ? new String(Base64.getDecoder().decode(parts[0]), StandardCharsets.UTF_8) : null;
        } catch (IllegalArgumentException e) {
            signed = null;
        }
        if (signed == null || !mac(signed).equals(parts[1]) || !thinking.isEmpty() && !thinking.equals(signed)) {
            return Optional.of("Invalid `signature` in `thinking` block");
        }
        return Optional.empty();
    }

    private static String mac(String text) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update("switchboard-fake-upstream:".getBytes(StandardCharsets.UTF_8));
            byte[] digest = sha.digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
