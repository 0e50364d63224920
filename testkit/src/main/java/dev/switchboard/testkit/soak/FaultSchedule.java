package dev.switchboard.testkit.soak;

import java.util.SplittableRandom;

/**
 * The seeded fault of every attempt: attempt {@code k} (0-based, across providers, in the order the gateway
 * makes them) of soak request {@code n} gets the same fault in every run with the same seed, so a report's
 * request id reproduces the exact schedule, and the oracle knows what each attempt was told to do.
 */
public record FaultSchedule(long seed) {
    private static final int TOTAL = java.util.Arrays.stream(Fault.values()).mapToInt(f -> f.percent).sum();

    public FaultSchedule {
        if (TOTAL != 100) {
            throw new IllegalStateException("the fault shares must add up to 100, not " + TOTAL);
        }
    }

    public Fault fault(long request, int attempt) {
        int draw = random(request, attempt).nextInt(100);
        for (Fault f : Fault.values()) {
            if (draw < f.percent) {
                return f;
            }
            draw -= f.percent;
        }
        throw new IllegalStateException("unreachable: shares add up to 100");
    }

    /** How many content chunks a complete answer has (6 to 20), and where a mid-stream reset cuts (after 2 to 5). */
    public int chunks(long request, int attempt) {
        return 6 + random(request, attempt).split().nextInt(15);
    }

    int cutAfter(long request, int attempt) {
        return 2 + random(request, attempt).split().split().nextInt(4);
    }

    /** The 5xx status of a {@link Fault#SERVER_ERROR}. */
    int serverStatus(long request, int attempt) {
        int[] statuses = {500, 502, 503, 504, 529};
        return statuses[random(request, attempt).split().split().split().nextInt(statuses.length)];
    }

    private SplittableRandom random(long request, int attempt) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + request * 1_000_003L + attempt);
    }
}
