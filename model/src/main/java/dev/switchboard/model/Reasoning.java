package dev.switchboard.model;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The caller's reasoning controls (spec 2.4), in one shape whatever format they arrived in. The engine
 * maps them to each provider's native controls only for models flagged {@code supports_reasoning}.
 *
 * <p>{@code effortImplied} says the effort was not the caller's but derived from its token budget, for
 * upstreams that take levels only: an upstream that takes the budget itself must not also get the
 * effort as a field the caller never sent.
 */
public record Reasoning(Optional<Effort> effort, Optional<Mode> mode, OptionalInt budgetTokens, Format format,
                        boolean exclude, Optional<String> summary, boolean effortImplied) {

    public static final Reasoning NONE = new Reasoning(Optional.empty(), Optional.empty(), OptionalInt.empty(),
            Format.SEPARATE, false, Optional.empty(), false);

    public Reasoning {
        Objects.requireNonNull(effort, "effort");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(budgetTokens, "budgetTokens");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(summary, "summary");
        effortImplied = effortImplied && effort.isPresent();
    }

    /** Controls whose effort, if any, is the caller's own. */
    public Reasoning(Optional<Effort> effort, Optional<Mode> mode, OptionalInt budgetTokens, Format format,
                     boolean exclude, Optional<String> summary) {
        this(effort, mode, budgetTokens, format, exclude, summary, false);
    }

    /** The effort the caller itself gave: empty when there is none or it was only implied by a budget. */
    public Optional<Effort> ownEffort() {
        return effortImplied ? Optional.empty() : effort;
    }

    /** True when the caller asked for any reasoning control at all. */
    public boolean requested() {
        return effort.isPresent() || mode.isPresent() || budgetTokens.isPresent();
    }

    /**
     * Reasoning effort levels, in increasing order. {@code NONE} and {@code MINIMAL} are accepted because
     * the OpenAI SDKs send them; the engine clamps every level to the nearest one an upstream accepts.
     */
    public enum Effort implements WireName {
        NONE, MINIMAL, LOW, MEDIUM, HIGH, XHIGH, MAX;

        /** Parses a wire value; empty when it is not a known level. */
        public static Optional<Effort> parse(String s) {
            return WireName.find(values(), s);
        }
    }

    /** The thinking switch: {@code on}/enabled, {@code off}/disabled, {@code auto}/adaptive. */
    public enum Mode { ON, OFF, AUTO }

    /** Where the trace goes in a chat-completions answer: its own field, or inline in think tags. */
    public enum Format { SEPARATE, INLINE }
}
