package dev.switchboard.engine.limits;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The limit counters of one gateway instance, in memory, by the rules of {@link LimitKind}: what the gateway uses
 * without Redis. One lock covers every counter, so a check-and-reserve over several limits is all or nothing; it
 * is held for a few microseconds per request.
 */
public final class InMemoryLimitStore implements LimitStore {
    private static final long WINDOW_MS = LimitKind.WINDOW.toMillis();
    /** When a refused parallel request may retry: a slot frees when some request ends, which nobody can foresee. */
    static final Duration PARALLEL_RETRY = Duration.ofSeconds(1);

    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Window> windows = new HashMap<>();
    private final Map<String, Map<Long, Long>> days = new HashMap<>();

    /** Entries of one sliding window or parallel set, oldest first: request id -> [time ms, tokens]. */
    private static final class Window {
        final LinkedHashMap<String, long[]> entries = new LinkedHashMap<>();
        long tokens;

        /** Drops entries whose time is at or before {@code cutoff}. */
        void dropUntil(long cutoff) {
            for (Iterator<long[]> it = entries.values().iterator(); it.hasNext(); ) {
                long[] e = it.next();
                if (e[0] > cutoff) {
                    return;
                }
                tokens -= e[1];
                it.remove();
            }
        }

        /** The time of the newest entry ({@code absent} when there is none): the last one, read in constant time. */
        long newest(long absent) {
            Map.Entry<String, long[]> last = entries.lastEntry();
            return last == null ? absent : last.getValue()[0];
        }

        /** The time of the entry {@code index} places from the oldest; walks only that far. */
        long timeAt(long index) {
            long i = 0;
            for (long[] e : entries.values()) {
                if (i++ == index) {
                    return e[0];
                }
            }
            throw new IndexOutOfBoundsException(index);
        }
    }

    public InMemoryLimitStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public LimitCheck reserve(String requestId, List<Limit> limits, long tokens) {
        lock.lock();
        try {
            long now = clock.millis();
            long day = epochDay(now);
            long midnight = LocalDate.ofEpochDay(day + 1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            List<Tally> tallies = new ArrayList<>(limits.size());
            boolean granted = true;
            for (Limit l : limits) {
                Tally t = check(l, now, day, midnight, tokens);
                granted &= !t.refuses();
                tallies.add(t);
            }
            if (!granted) {
                return new LimitCheck(tallies, Optional.empty());
            }
            List<Tally> after = new ArrayList<>(limits.size());
            for (Tally t : tallies) {
                after.add(take(t, requestId, now, day, tokens));
            }
            return new LimitCheck(after, Optional.of(new LimitHold(requestId, limits, tokens, day)));
        } finally {
            lock.unlock();
        }
    }

    /** Where {@code l} stands now and whether the request fits; changes nothing but expired entries. */
    private Tally check(Limit l, long now, long day, long midnight, long tokens) {
        long c = l.ceiling();
        return switch (l.kind()) {
            case REQUESTS_PER_MINUTE -> {
                Window w = window(l, now - WINDOW_MS);
                int n = w.entries.size();
                Optional<Instant> until = Optional.empty();
                if (n + 1 > c) {
                    // the window has room once all but c - 1 of its entries have left: n - c + 1 of them, oldest first
                    until = Optional.of(Instant.ofEpochMilli(w.timeAt(n - c) + WINDOW_MS));
                }
                yield new Tally(l, c - n, Instant.ofEpochMilli(w.newest(now - WINDOW_MS) + WINDOW_MS), until);
            }
            case TOKENS_PER_MINUTE -> {
                Window w = window(l, now - WINDOW_MS);
                Optional<Instant> until = Optional.empty();
                if (w.tokens + tokens > c) {
                    until = Optional.of(tokens > c ? Instant.MAX : whenFits(w, tokens, c));
                }
                yield new Tally(l, c - w.tokens, Instant.ofEpochMilli(w.newest(now - WINDOW_MS) + WINDOW_MS), until);
            }
            case TOKENS_PER_DAY -> {
                long used = days.getOrDefault(l.counter(), Map.of()).getOrDefault(day, 0L);
                Optional<Instant> until = used + tokens > c
                        ? Optional.of(tokens > c ? Instant.MAX : Instant.ofEpochMilli(midnight)) : Optional.empty();
                yield new Tally(l, c - used, Instant.ofEpochMilli(midnight), until);
            }
            case PARALLEL_REQUESTS -> {
                Window w = window(l, now);
                int n = w.entries.size();
                Optional<Instant> until = n + 1 > c ? Optional.of(Instant.ofEpochMilli(now).plus(PARALLEL_RETRY))
                        : Optional.empty();
                yield new Tally(l, c - n, Instant.ofEpochMilli(now), until);
            }
        };
    }

    /** When enough of the window's oldest tokens have left for {@code tokens} more to fit under {@code ceiling}. */
    private static Instant whenFits(Window w, long tokens, long ceiling) {
        long left = w.tokens;
        for (long[] e : w.entries.values()) {
            left -= e[1];
            if (left + tokens <= ceiling) {
                return Instant.ofEpochMilli(e[0] + WINDOW_MS);
            }
        }
        return Instant.ofEpochMilli(w.newest(0) + WINDOW_MS);
    }

    /** Reserves the request in the limit of {@code before} and tells where the limit stands then. */
    private Tally take(Tally before, String requestId, long now, long day, long tokens) {
        Limit l = before.limit();
        return switch (l.kind()) {
            case REQUESTS_PER_MINUTE -> {
                windows.get(l.counter()).entries.put(requestId, new long[] {now, 0});
                yield new Tally(l, before.remaining() - 1, Instant.ofEpochMilli(now + WINDOW_MS), Optional.empty());
            }
            case TOKENS_PER_MINUTE -> {
                Window w = windows.get(l.counter());
                w.entries.put(requestId, new long[] {now, tokens});
                w.tokens += tokens;
                yield new Tally(l, l.ceiling() - w.tokens, Instant.ofEpochMilli(now + WINDOW_MS), Optional.empty());
            }
            case TOKENS_PER_DAY -> {
                Map<Long, Long> perDay = days.computeIfAbsent(l.counter(), k -> new HashMap<>());
                perDay.keySet().removeIf(d -> d < day - 1); // yesterday's stays for late corrections
                long used = perDay.merge(day, tokens, Long::sum);
                yield new Tally(l, l.ceiling() - used, before.resetAt(), Optional.empty());
            }
            case PARALLEL_REQUESTS -> {
                windows.get(l.counter()).entries.put(requestId, new long[] {now + LimitKind.PARALLEL_LEASE.toMillis(), 0});
                yield new Tally(l, before.remaining() - 1, before.resetAt(), Optional.empty());
            }
        };
    }

    @Override
    public CompletionStage<Void> settle(LimitHold hold, long actualTokens) {
        lock.lock();
        try {
            for (Limit l : hold.limits()) {
                switch (l.kind()) {
                    case REQUESTS_PER_MINUTE -> { }
                    case TOKENS_PER_MINUTE -> {
                        Window w = windows.get(l.counter());
                        long[] e = w == null ? null : w.entries.get(hold.requestId());
                        if (e != null) {
                            w.tokens += actualTokens - e[1];
                            e[1] = actualTokens;
                        }
                    }
                    case TOKENS_PER_DAY -> correctDay(l, hold, actualTokens - hold.tokens());
                    case PARALLEL_REQUESTS -> leave(l, hold.requestId());
                }
            }
        } finally {
            lock.unlock();
        }
        return DONE;
    }

    @Override
    public CompletionStage<Void> release(LimitHold hold) {
        lock.lock();
        try {
            for (Limit l : hold.limits()) {
                switch (l.kind()) {
                    case TOKENS_PER_DAY -> correctDay(l, hold, -hold.tokens());
                    default -> leave(l, hold.requestId());
                }
            }
        } finally {
            lock.unlock();
        }
        return DONE;
    }

    private void correctDay(Limit l, LimitHold hold, long delta) {
        Map<Long, Long> perDay = days.get(l.counter());
        if (perDay != null && perDay.containsKey(hold.epochDay())) {
            perDay.merge(hold.epochDay(), delta, Long::sum);
        }
    }

    private void leave(Limit l, String requestId) {
        Window w = windows.get(l.counter());
        if (w != null) {
            long[] e = w.entries.remove(requestId);
            if (e != null) {
                w.tokens -= e[1];
            }
        }
    }

    /** The window of {@code l} without its entries at or before {@code cutoff}. */
    private Window window(Limit l, long cutoff) {
        Window w = windows.computeIfAbsent(l.counter(), k -> new Window());
        w.dropUntil(cutoff);
        return w;
    }

    private static long epochDay(long millis) {
        return Math.floorDiv(millis, Duration.ofDays(1).toMillis());
    }
}
