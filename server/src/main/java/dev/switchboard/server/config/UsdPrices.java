package dev.switchboard.server.config;

import java.math.BigDecimal;
import java.util.OptionalLong;

/**
 * Converts a price written in USD per million tokens to nano-dollars per million tokens, exactly: the
 * scalar's text is read digit by digit or through {@link BigDecimal}, never through a double, so {@code 0.15} is
 * {@code 150_000_000} and not {@code 149_999_999}.
 */
final class UsdPrices {
    private static final int NANOS_PER_DOLLAR_DIGITS = 9;
    private static final long[] POWERS_OF_TEN = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
            100_000_000L, 1_000_000_000L};

    private UsdPrices() {
    }

    /** Why a price was refused; the message says what is expected. */
    static final class InvalidPrice extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidPrice(String message) {
            super(message, null, false, false);
        }
    }

    static long toNanos(String text) throws InvalidPrice {
        String t = text.trim().replace("_", "");
        OptionalLong plain = plainNanos(t);
        if (plain.isPresent()) {
            return plain.getAsLong();
        }
        BigDecimal usd;
        try {
            usd = new BigDecimal(t);
        } catch (NumberFormatException e) {
            throw new InvalidPrice("must be a number of USD per million tokens, e.g. 0.15 or 3.00, got '" + text + "'");
        }
        if (usd.signum() < 0) {
            throw new InvalidPrice("must not be negative, got " + text + " (use 0 for free)");
        }
        BigDecimal nanos = usd.movePointRight(NANOS_PER_DOLLAR_DIGITS).stripTrailingZeros();
        if (nanos.scale() > 0) {
            throw new InvalidPrice("is finer than a nano-dollar per million tokens, got " + text
                    + " (use at most 9 decimal places)");
        }
        try {
            return nanos.longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidPrice("is too large, got " + text + " (at most about 9 billion USD per million tokens)");
        }
    }

    /**
     * The usual way of writing a price, read without {@link BigDecimal}: an optional {@code +}, ASCII digits and at most
     * one point, at most 9 digits before it and 9 after. Empty for anything else (a minus sign, an exponent, more
     * digits, other characters), which {@link BigDecimal} then reads or refuses, so both ways give the same answers.
     * Why: the JDK's {@code BigDecimal} class initialisation computes large powers of five, which took 60 ms of a
     * start on the main thread (its first use in the gateway was reading the config's prices).
     */
    private static OptionalLong plainNanos(String t) {
        long whole = 0;
        long fraction = 0;
        int wholeDigits = 0;
        int fractionDigits = 0;
        boolean point = false;
        for (int i = t.startsWith("+") ? 1 : 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '.' && !point) {
                point = true;
            } else if (c < '0' || c > '9') {
                return OptionalLong.empty();
            } else if (point) {
                if (++fractionDigits > NANOS_PER_DOLLAR_DIGITS) {
                    return OptionalLong.empty();
                }
                fraction = fraction * 10 + (c - '0');
            } else {
                if (++wholeDigits > NANOS_PER_DOLLAR_DIGITS) {
                    return OptionalLong.empty();
                }
                whole = whole * 10 + (c - '0');
            }
        }
        if (wholeDigits + fractionDigits == 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(whole * POWERS_OF_TEN[NANOS_PER_DOLLAR_DIGITS]
                + fraction * POWERS_OF_TEN[NANOS_PER_DOLLAR_DIGITS - fractionDigits]);
    }
}
