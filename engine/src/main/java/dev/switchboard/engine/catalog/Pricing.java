package dev.switchboard.engine.catalog;

/**
 * Prices of a model in nano-dollars (1e-9 USD) per million tokens; integers, so that billing never uses
 * floating point. Config gives USD per million tokens; {@code 3.00} becomes {@code 3_000_000_000}.
 */
public record Pricing(long inputPerMillion, long outputPerMillion, long cacheReadPerMillion,
                      long cacheWrite5mPerMillion, long cacheWrite1hPerMillion) {
    public static final Pricing FREE = new Pricing(0, 0, 0, 0, 0);

    public Pricing {
        if (inputPerMillion < 0 || outputPerMillion < 0 || cacheReadPerMillion < 0 || cacheWrite5mPerMillion < 0
                || cacheWrite1hPerMillion < 0) {
            throw new IllegalArgumentException("prices must not be negative");
        }
    }

    /** Input and output prices with the usual cache ratios: reads 0.1x, 5-minute writes 1.25x, 1-hour writes 2x input. */
    public static Pricing withDefaultCacheRatios(long inputPerMillion, long outputPerMillion) {
        return new Pricing(inputPerMillion, outputPerMillion, inputPerMillion / 10, inputPerMillion * 5 / 4,
                inputPerMillion * 2);
    }
}
