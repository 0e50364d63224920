package dev.switchboard.engine.account;

import java.security.SecureRandom;
import java.util.Base64;

/** Random bearer secrets (API keys, session ids): 256 bits from {@link SecureRandom}, base64url without padding (43 chars). */
public final class RandomSecrets {

    public static final int RANDOM_CHARS = 43;

    private final SecureRandom random;

    public RandomSecrets(SecureRandom random) {
        this.random = random;
    }

    /** {@code prefix} followed by 43 random base64url characters. */
    public String next(String prefix) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether {@code s} is {@code prefix} followed by exactly 43 base64url characters. */
    public static boolean hasShape(String s, String prefix) {
        if (s.length() != prefix.length() + RANDOM_CHARS || !s.startsWith(prefix)) {
            return false;
        }
        for (int i = prefix.length(); i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
