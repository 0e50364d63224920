package dev.switchboard.testkit.soak;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One soak run: how many requests, how concurrent, how many {@code kill -9} restarts, which database, which seed,
 * and where its files (config, database, gateway log) go.
 *
 * @param database {@code sqlite} for a file in {@code dir}, or a {@code postgresql://...} URL (a schema of its own)
 */
public record SoakSettings(int requests, int concurrency, int streamedPercent, int abortPercent, int kills, long seed,
                           String database, Path dir) {
    public static final int FULL_REQUESTS = 20_000;
    public static final int FULL_KILLS = 3;

    public SoakSettings {
        if (requests < 1 || concurrency < 1 || kills < 0 || streamedPercent < 0 || streamedPercent > 100
                || abortPercent < 0 || abortPercent > streamedPercent) {
            throw new IllegalArgumentException("requests and concurrency must be positive, kills not negative, "
                    + "0 <= abort% <= streamed% <= 100");
        }
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(dir, "dir");
    }

    /** The soak of the issue: 20,000 requests, 70% streamed, 5% aborted, 32 concurrent, 3 kills. */
    public static SoakSettings full(String database, Path dir, long seed) {
        return new SoakSettings(FULL_REQUESTS, 32, 70, 5, FULL_KILLS, seed, database, dir);
    }
}
