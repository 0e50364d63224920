package dev.switchboard.engine.account;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The SHA-256 of a bearer secret, as 64 lower-case hex characters: the only form in which API and
 * admin keys are stored. A plain hash (no salt, no stretching) is enough because the secrets carry
 * 256 random bits; it also lets the store find a key by an indexed equality lookup.
 */
public record KeyHash(String hex) {

    private static final HexFormat HEX = HexFormat.of();

    public KeyHash {
        Objects.requireNonNull(hex, "hex");
        if (hex.length() != 64 || !hex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            throw new IllegalArgumentException("expected 64 lower-case hex characters of a SHA-256 hash");
        }
    }

    /** Hashes the UTF-8 bytes of {@code secret}. */
    public static KeyHash of(String secret) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
            return new KeyHash(HEX.formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }

    /** Constant-time comparison, so timing reveals nothing about how much of a hash matched. */
    public boolean matches(KeyHash other) {
        return MessageDigest.isEqual(HEX.parseHex(hex), HEX.parseHex(other.hex));
    }
}
