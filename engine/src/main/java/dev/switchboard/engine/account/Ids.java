package dev.switchboard.engine.account;

import java.security.SecureRandom;
import java.time.Instant;

/**
 * Opaque identifiers such as {@code usr_01jbz3k8q4...}: a type prefix, then 48 bits of creation
 * time and 80 random bits in lower-case Crockford base32 (ULID layout). The time part makes ids of
 * different milliseconds sort by creation, which keeps listings stable without a sequence column
 * (which SQLite and PostgreSQL spell differently).
 */
public final class Ids {

    private static final char[] ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private Ids() {
    }

    /** A fresh id {@code <prefix>_<26 chars>} for something created at {@code at}. */
    public static String next(String prefix, Instant at) {
        byte[] random = new byte[10];
        RANDOM.nextBytes(random);
        char[] out = new char[26];
        long time = at.toEpochMilli();
        for (int i = 9; i >= 0; i--) {
            out[i] = ALPHABET[(int) (time & 31)];
            time >>>= 5;
        }
        // 80 random bits = 16 groups of 5 bits.
        long hi = 0;
        for (int i = 0; i < 5; i++) {
            hi = (hi << 8) | (random[i] & 0xff);
        }
        long lo = 0;
        for (int i = 5; i < 10; i++) {
            lo = (lo << 8) | (random[i] & 0xff);
        }
        for (int i = 17; i >= 10; i--) {
            out[i] = ALPHABET[(int) (hi & 31)];
            hi >>>= 5;
        }
        for (int i = 25; i >= 18; i--) {
            out[i] = ALPHABET[(int) (lo & 31)];
            lo >>>= 5;
        }
        return prefix + "_" + new String(out);
    }
}
