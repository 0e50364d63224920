package dev.switchboard.engine.catalog;

import java.util.Locale;
import java.util.Optional;

/** The wire format a provider speaks, or the in-process simulator. */
public enum ProviderType {
    OPENAI, ANTHROPIC, GEMINI, SIMULATOR;

    /** The name used in config files and logs. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ProviderType> parse(String s) {
        for (ProviderType t : values()) {
            if (t.wire().equals(s)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
