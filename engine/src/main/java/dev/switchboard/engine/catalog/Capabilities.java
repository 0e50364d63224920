package dev.switchboard.engine.catalog;

/**
 * A model's capability flags (spec 2.1). They are the authority: nothing is inferred from model names.
 * {@code supportsJson} says whether structured output ({@code response_format}) is sent upstream.
 */
public record Capabilities(boolean supportsReasoning, boolean supportsVision, boolean supportsTools,
                           boolean supportsCaching, boolean supportsJson) {
    public static final Capabilities TEXT_ONLY = new Capabilities(false, false, false, false, false);
}
