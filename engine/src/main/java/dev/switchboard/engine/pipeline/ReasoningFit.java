package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Reasoning.Effort;
import java.util.List;
import java.util.Optional;

/**
 * Fits the caller's reasoning controls to a reasoning model's family (spec 2.4): an effort level the
 * upstream does not accept is clamped to the nearest one it does (never rejected); a family that always
 * reasons cannot be switched off, so "off" becomes its lowest effort; a hybrid family keeps the hard
 * switch (the trace is then hidden: the caller wanted none). Budgets pass through: each wire translator
 * prefers a budget where its provider has one. An effort derived from a budget is marked
 * {@link Reasoning#effortImplied()}, so a provider that takes the budget does not also get an effort the caller
 * never sent.
 */
final class ReasoningFit {
    private ReasoningFit() {
    }

    static Reasoning fit(Reasoning r, ReasoningProfile profile) {
        List<Effort> accepted = profile.efforts();
        if (accepted.isEmpty() || profile.family() == ReasoningProfile.Family.NONE) {
            return r;
        }
        Optional<Effort> effort = r.effort();
        Optional<Reasoning.Mode> mode = r.mode();
        boolean off = mode.filter(m -> m == Reasoning.Mode.OFF).isPresent() || effort.filter(e -> e == Effort.NONE).isPresent();
        if (off && profile.family() == ReasoningProfile.Family.ALWAYS) {
            // cannot stop it reasoning: ask for as little as possible, and show none of it (the caller turned it off)
            return new Reasoning(Optional.of(accepted.getFirst()), Optional.empty(), r.budgetTokens(), r.format(),
                    true, r.summary());
        }
        if (off) {
            return new Reasoning(Optional.empty(), Optional.of(Reasoning.Mode.OFF), r.budgetTokens(), r.format(),
                    r.exclude(), r.summary());
        }
        // An effort asks for reasoning: providers with an on/off switch (Claude, Gemini) need it on. A budget
        // without an effort gets the level it implies, for providers that take levels only (OpenAI).
        Optional<Effort> level = effort.or(() -> r.budgetTokens().isPresent()
                ? Optional.of(fromBudget(r.budgetTokens().getAsInt())) : Optional.empty());
        Optional<Reasoning.Mode> switched = mode.isEmpty() && (effort.isPresent() || r.budgetTokens().isPresent())
                ? Optional.of(Reasoning.Mode.ON) : mode;
        return new Reasoning(level.map(e -> nearest(e, accepted)), switched, r.budgetTokens(), r.format(), r.exclude(),
                r.summary(), effort.isEmpty() || r.effortImplied());
    }

    /** The effort level a thinking budget corresponds to (about 2k, 8k and more tokens). */
    static Effort fromBudget(int budget) {
        return budget <= 2048 ? Effort.LOW : budget <= 8192 ? Effort.MEDIUM : Effort.HIGH;
    }

    /** The accepted level closest to {@code wanted} in the ordering of {@link Effort}; ties go to the higher one. */
    static Effort nearest(Effort wanted, List<Effort> accepted) {
        Effort best = accepted.getFirst();
        int bestDistance = Integer.MAX_VALUE;
        for (Effort e : accepted) {
            int d = Math.abs(e.ordinal() - wanted.ordinal());
            if (d < bestDistance || d == bestDistance && e.ordinal() > best.ordinal()) {
                best = e;
                bestDistance = d;
            }
        }
        return best;
    }
}
