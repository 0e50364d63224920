package dev.switchboard.model;

/**
 * A prompt-cache breakpoint: the prefix up to and including the marked block should be cached.
 * Providers without explicit caching ignore it; the messages format sends it as
 * {@code cache_control: {type: ephemeral, ttl?}}.
 */
public record CacheMarker(Ttl ttl) {

    /** Lifetime of a cached prefix; the price of a cache write depends on it. */
    public enum Ttl {
        FIVE_MINUTES("5m"),
        ONE_HOUR("1h");

        private final String wire;

        Ttl(String wire) {
            this.wire = wire;
        }

        /** The TTL as the messages format spells it ({@code 5m}, {@code 1h}). */
        public String wire() {
            return wire;
        }
    }

    public static final CacheMarker FIVE_MINUTES = new CacheMarker(Ttl.FIVE_MINUTES);
    public static final CacheMarker ONE_HOUR = new CacheMarker(Ttl.ONE_HOUR);

    public CacheMarker {
        java.util.Objects.requireNonNull(ttl, "ttl");
    }
}
