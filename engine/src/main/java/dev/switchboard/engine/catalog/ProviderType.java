package dev.switchboard.engine.catalog;

import dev.switchboard.model.WireName;
import java.util.Optional;

/**
 * The wire format a provider speaks, or the in-process simulator. {@code OPENAI} is chat completions
 * ({@code POST /chat/completions}) and {@code OPENAI_RESPONSES} the Responses API ({@code POST /responses})
 * at a base URL given as for {@code openai}.
 */
public enum ProviderType implements WireName {
    OPENAI, OPENAI_RESPONSES, ANTHROPIC, GEMINI, SIMULATOR;

    /** The names in config files and logs are {@code openai-responses}, not {@code openai_responses}. */
    @Override
    public char separator() {
        return '-';
    }

    public static Optional<ProviderType> parse(String s) {
        return WireName.find(values(), s);
    }
}
