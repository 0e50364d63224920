package dev.switchboard.wire.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The end-user id sent to an upstream's {@code user}-style field (OpenAI's {@code user}): providers use it
 * to tell abusive end users apart and expect a short opaque id. A caller's id that is already one (at most
 * {@value #MAX_LENGTH} letters, digits and {@code . _ - @ : +}) goes as it is; anything else, such as the
 * JSON object some agents put in the messages format's {@code metadata.user_id}, becomes {@code u-} and 32
 * hex digits of its SHA-256: short, stable (the same caller id gives the same value on every request) and
 * without the original text.
 */
public final class UserIds {
    static final int MAX_LENGTH = 64;
    private static final Pattern SHORT_ID = Pattern.compile("[A-Za-z0-9._@:+-]{1," + MAX_LENGTH + "}");

    private UserIds() {
    }

    public static String shortStable(String userId) {
        if (SHORT_ID.matcher(userId).matches()) {
            return userId;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(userId.getBytes(StandardCharsets.UTF_8));
            return "u-" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
