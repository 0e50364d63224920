package dev.switchboard.server.config;

import java.math.BigDecimal;

/**
 * Converts a price written in USD per million tokens to nano-dollars per million tokens, exactly: the
 * scalar's text goes through {@link BigDecimal}, never through a double, so {@code 0.15} is
 * {@code 150_000_000} and not {@code 149_999_999}.
 */
final class UsdPrices {
    private static final int NANOS_PER_DOLLAR_DIGITS = 9;

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
}
