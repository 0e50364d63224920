package dev.switchboard.engine.context;

import dev.switchboard.engine.tokens.TokenEstimator;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code middle-out} transform (spec 2.2): drops whole messages from the middle of a conversation until
 * its estimated size fits a token budget. Pure.
 *
 * <p>Contract of {@link #trim}:
 * <ul>
 *   <li>Messages are grouped into units that are kept or dropped together: a message stands alone, except
 *       that a tool call and its result bind every message from the call's turn to the result's turn into
 *       one unit, so a provider never sees a result without its call or a call without its result.
 *   <li>The first unit (holding the first message) and the last unit (the most recent turn) are never
 *       dropped. System prompts are not messages here and are never touched.
 *   <li>While the estimate exceeds the budget, the unit in the middle of those remaining is dropped
 *       (so the conversation is eaten from the centre outwards, keeping its opening and its most recent
 *       turns).
 *   <li>The result keeps the original order. Empty when even the first and last units exceed the budget.
 * </ul>
 */
public final class MiddleOut {
    /** The transform's name in {@code transforms}. */
    public static final String NAME = "middle-out";

    private MiddleOut() {
    }

    /** What was kept, and how many messages were dropped. */
    public record Result(List<Message> messages, int dropped) {
        public Result {
            messages = List.copyOf(messages);
        }
    }

    /**
     * The messages, trimmed so that their estimate is at most {@code budgetTokens}; unchanged when they
     * already fit.
     */
    public static Optional<Result> trim(List<Message> messages, long budgetTokens) {
        List<Unit> units = units(messages);
        long total = units.stream().mapToLong(Unit::tokens).sum();
        while (total > budgetTokens && units.size() > 2) {
            total -= units.remove(units.size() / 2).tokens();
        }
        if (total > budgetTokens) {
            return Optional.empty();
        }
        List<Message> kept = new ArrayList<>();
        for (Unit u : units) {
            kept.addAll(messages.subList(u.from(), u.to()));
        }
        return Optional.of(new Result(kept, messages.size() - kept.size()));
    }

    /** Messages {@code [from, to)} that stand or fall together, and their estimated tokens. */
    record Unit(int from, int to, long tokens) {
    }

    /** The conversation cut into units, in order. */
    static List<Unit> units(List<Message> messages) {
        int n = messages.size();
        // bound[k]: messages k and k+1 belong together (a call at or before k has its result after k)
        boolean[] bound = new boolean[Math.max(0, n - 1)];
        Map<String, Integer> callAt = new HashMap<>();
        for (int i = 0; i < n; i++) {
            for (ContentBlock b : messages.get(i).content()) {
                if (b instanceof ContentBlock.ToolCall c) {
                    callAt.put(c.id(), i);
                } else if (b instanceof ContentBlock.ToolResult r) {
                    Integer c = callAt.get(r.callId());
                    if (c != null) {
                        for (int k = c; k < i; k++) {
                            bound[k] = true;
                        }
                    }
                }
            }
        }
        List<Unit> units = new ArrayList<>();
        int from = 0;
        long tokens = 0;
        for (int i = 0; i < n; i++) {
            tokens += TokenEstimator.ofMessage(messages.get(i));
            if (i == n - 1 || !bound[i]) {
                units.add(new Unit(from, i + 1, tokens));
                from = i + 1;
                tokens = 0;
            }
        }
        return units;
    }
}
