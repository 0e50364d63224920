package dev.switchboard.engine.catalog;

import dev.switchboard.model.Usage;
import java.math.BigInteger;

/**
 * What tokens cost, exactly: every token class times its price (nano-dollars per million tokens) summed as
 * an exact integer, then divided by a million and rounded once, half up, to a whole nano-dollar. No
 * floating point. The classes never overlap: the canonical {@link Usage#inputTokens()} includes cache
 * reads and writes (whatever convention the upstream used, its wire reader normalised it), so the input
 * price applies to {@link Usage#uncachedInputTokens()} only and each cached token is billed once, at its
 * cache price. Reasoning tokens are output tokens.
 */
public final class Cost {
    private static final BigInteger MILLION = BigInteger.valueOf(1_000_000);
    private static final BigInteger HALF_MILLION = BigInteger.valueOf(500_000);

    private Cost() {
    }

    /** The cost of {@code usage} at {@code pricing}, in nano-dollars. */
    public static long of(Pricing pricing, Usage usage) {
        BigInteger sum = product(usage.uncachedInputTokens(), pricing.inputPerMillion())
                .add(product(usage.outputTokens(), pricing.outputPerMillion()))
                .add(product(usage.cacheReadTokens(), pricing.cacheReadPerMillion()))
                .add(product(usage.cacheWrite5mTokens(), pricing.cacheWrite5mPerMillion()))
                .add(product(usage.cacheWrite1hTokens(), pricing.cacheWrite1hPerMillion()));
        return roundedNanos(sum);
    }

    /** {@code tokens} at {@code pricePerMillion} alone, rounded the same way. */
    public static long ofTokens(long tokens, long pricePerMillion) {
        return roundedNanos(product(tokens, pricePerMillion));
    }

    /**
     * How many tokens at {@code pricePerMillion} {@code nanos} pays for in full (rounding down); unbounded
     * ({@link Long#MAX_VALUE}) when the price is zero.
     */
    public static long tokensAffordable(long nanos, long pricePerMillion) {
        if (pricePerMillion == 0) {
            return Long.MAX_VALUE;
        }
        if (nanos <= 0) {
            return 0;
        }
        BigInteger t = BigInteger.valueOf(nanos).multiply(MILLION).divide(BigInteger.valueOf(pricePerMillion));
        return t.bitLength() < 63 ? t.longValueExact() : Long.MAX_VALUE;
    }

    private static BigInteger product(long tokens, long pricePerMillion) {
        return BigInteger.valueOf(tokens).multiply(BigInteger.valueOf(pricePerMillion));
    }

    private static long roundedNanos(BigInteger nanoMillionths) {
        BigInteger nanos = nanoMillionths.add(HALF_MILLION).divide(MILLION);
        // A request costing more than 9.2 billion USD is not a request; saturate rather than wrap.
        return nanos.bitLength() < 63 ? nanos.longValueExact() : Long.MAX_VALUE;
    }
}
