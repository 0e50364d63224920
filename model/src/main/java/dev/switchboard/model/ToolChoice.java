package dev.switchboard.model;

import java.util.Objects;

/** How the model may use the tools: {@link Auto} (default), {@link None}, {@link Required} (some tool), or {@link Named}. */
public sealed interface ToolChoice {
    Auto AUTO = new Auto();
    None NONE = new None();
    Required REQUIRED = new Required();

    record Auto() implements ToolChoice {}

    record None() implements ToolChoice {}

    /** The model must call at least one tool (OpenAI {@code required}, Anthropic {@code any}, Gemini {@code ANY}). */
    record Required() implements ToolChoice {}

    /** The model must call this tool. */
    record Named(String name) implements ToolChoice {
        public Named {
            Objects.requireNonNull(name, "name");
        }
    }
}
