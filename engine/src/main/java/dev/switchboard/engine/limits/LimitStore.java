package dev.switchboard.engine.limits;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where limit counters live: in this process ({@link InMemoryLimitStore}) or in Redis, shared by every gateway
 * instance. Every implementation counts by the rules of {@link LimitKind}, reads time from one clock (Redis's own,
 * when shared, so instances with skewed clocks still agree), and makes each check-and-reserve atomic: two requests
 * checked at once are never both granted when only one fits.
 *
 * <p>Implementations are thread-safe. A store that cannot be reached throws {@link LimitStoreException}; what
 * happens then is {@link GuardedLimitStore}'s policy.
 */
public interface LimitStore {
    /**
     * Checks {@code limits} for request {@code requestId} needing {@code tokens} tokens, and only when every one has
     * room reserves in all of them (the request in each request window and parallel set, {@code tokens} in each
     * token limit): all or nothing, atomically.
     *
     * @param tokens the request's estimate (input + the most output it may produce); 0 for a token count
     */
    LimitCheck reserve(String requestId, List<Limit> limits, long tokens);

    /**
     * Closes a granted request: its tokens in each token limit become {@code actualTokens} (0 for a request that
     * failed), and it leaves the parallel sets. Its entry in the request windows stays: it was a request.
     *
     * <p>A shared store may send the settlement without waiting for it (nobody waits for its answer, so it costs
     * the request no round trip): the returned stage completes when it is applied, or exceptionally with
     * {@link LimitStoreException}. It is applied before any check this instance sends after it returns.
     */
    CompletionStage<Void> settle(LimitHold hold, long actualTokens);

    /**
     * Undoes a granted request entirely, request windows included, as if it had never been checked; like
     * {@link #settle}, possibly without waiting.
     */
    CompletionStage<Void> release(LimitHold hold);

    /** A stage that is already complete: what a store that applies settlements at once returns. */
    CompletionStage<Void> DONE = CompletableFuture.completedFuture(null);
}
