package dev.switchboard.engine.account;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * Conversion between decimal US-dollar text (as operators type it) and integer nano-dollars (as
 * everything is stored and computed, docs/contracts.md §3). No floating point is involved: the text is
 * parsed as a {@link BigDecimal} and scaled exactly.
 */
public final class Usd {

    /** 1 USD = 10^9 nano-dollars. */
    public static final long NANOS_PER_USD = 1_000_000_000L;

    // At most 9 integer digits keeps every parsed value (< 10^18 nanos) inside a long, and refusing
    // exponents keeps "1e999999999" from costing anything to reject.
    private static final Pattern DECIMAL = Pattern.compile("[+-]?\\d{1,9}(\\.\\d{1,9})?");

    private Usd() {
    }

    /**
     * Parses {@code text} ("10", "0.25", "-3.000000001") into nano-dollars.
     *
     * @param field the request field the text came from, named in the error
     * @throws AccountException INVALID({@code field}) unless the text is a plain decimal with at
     *         most 9 digits before and 9 after the point
     */
    public static long toNanos(String text, String field) {
        String t = text.strip();
        if (!DECIMAL.matcher(t).matches()) {
            throw AccountException.invalid(field, field
                    + ": expected a decimal amount of US dollars such as \"10\" or \"0.25\""
                    + " (at most 9 digits before and 9 after the point, no exponent)");
        }
        return new BigDecimal(t).movePointRight(9).longValueExact();
    }

    /** Renders nano-dollars as plain decimal dollars without trailing zeros: 1_500_000_000 -> "1.5". */
    public static String format(long nanos) {
        return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
    }
}
