package dev.switchboard.engine.catalog;

/**
 * How much of an OpenAI model is reachable only through OpenAI's Responses API rather than chat
 * completions, on the vendor's own endpoint (OpenRouter and other relays translate for themselves).
 */
public enum ResponsesRequirement {
    /** Chat completions serves the model fully. */
    NOT_NEEDED,
    /**
     * Chat completions refuses function tools together with a reasoning effort other than {@code none}
     * ("Function tools with reasoning_effort are not supported ... use /v1/responses"): GPT-5.4 and later.
     */
    FOR_REASONING_TOOLS,
    /** The model is served only by the Responses API: the {@code -pro}, codex and deep-research lines. */
    ONLY;

    /** The config and discovery spelling: {@code only}, {@code for_reasoning_tools}, {@code not_needed}. */
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
