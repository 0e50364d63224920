package dev.switchboard.engine.account;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Password hashing with the JDK's PBKDF2WithHmacSHA256: a random 16-byte salt per password and a
 * 256-bit derived key. The iteration count is stored inside each hash, so it can be raised later
 * without invalidating existing passwords.
 */
public final class Passwords {

    /** The scheme tag that starts every encoded hash. */
    public static final String SCHEME = "pbkdf2-sha256";
    /** OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256. */
    public static final int DEFAULT_ITERATIONS = 600_000;
    static final int MIN_LENGTH = 8;
    // Bounds the CPU an attacker can make one hash cost.
    static final int MAX_LENGTH = 1024;

    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final int iterations;

    /** Hashes with {@link #DEFAULT_ITERATIONS}. */
    public Passwords() {
        this(DEFAULT_ITERATIONS);
    }

    /** Hashes with {@code iterations} rounds; tests use a small number to stay fast. */
    public Passwords(int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations: expected at least 1, got " + iterations);
        }
        this.iterations = iterations;
    }

    /**
     * Hashes {@code password}.
     *
     * @throws AccountException INVALID("password") unless it has 8 to 1024 characters
     */
    public PasswordHash hash(String password) {
        if (password.length() < MIN_LENGTH || password.length() > MAX_LENGTH) {
            throw AccountException.invalid("password",
                    "password: expected " + MIN_LENGTH + " to " + MAX_LENGTH + " characters");
        }
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        byte[] derived = derive(password, salt, iterations);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return new PasswordHash(SCHEME + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(derived));
    }

    /** Whether {@code password} produced {@code hash}; the final comparison is constant-time. */
    public boolean verify(String password, PasswordHash hash) {
        String[] parts = hash.encoded().split("\\$");
        if (parts.length != 4 || password.length() > MAX_LENGTH) {
            return false;
        }
        try {
            int rounds = Integer.parseInt(parts[1]);
            byte[] salt = Base64.getDecoder().decode(parts[2]);
            byte[] expected = Base64.getDecoder().decode(parts[3]);
            return MessageDigest.isEqual(expected, derive(password, salt, rounds));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static byte[] derive(String password, byte[] salt, int rounds) {
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, rounds, 256);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK provides " + ALGORITHM, e);
        } finally {
            spec.clearPassword();
        }
    }
}
