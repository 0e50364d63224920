package dev.switchboard.engine.catalog;

import java.util.Locale;
import java.util.Optional;

/**
 * The wire format a provider speaks, or the in-process simulator. {@code OPENAI} is chat completions
 * ({@code POST /chat/completions}) and {@code OPENAI_RESPONSES} the Responses API ({@code POST /responses})
 * at a base URL given as for {@code openai}.
 */
public enum ProviderType {
    OPENAI("openai"), OPENAI_RESPONSES("openai-responses"), ANTHROPIC("anthropic"), GEMINI("gemini"),
    SIMULATOR("simulator");

    private final String wire;

    ProviderType(String wire) {
        this.wire = wire;
    }

    /** The name used in config files and logs. */
    public String wire() {
        return wire;
    }

    public static Optional<ProviderType> parse(String s) {
        for (ProviderType t : values()) {
            if (t.wire.equals(s)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
