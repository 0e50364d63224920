package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;
import java.util.Locale;

/**
 * Who sees a skill. {@code PUBLIC}: listed and readable by anyone. {@code UNLISTED}: readable and usable by
 * anyone who has its id, never listed. {@code PRIVATE}: its owner only; to anyone else it does not exist (404).
 * Operator entries are always public.
 */
public enum Visibility {
    PUBLIC, UNLISTED, PRIVATE;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code public | unlisted | private}; anything else is a 400 naming {@code field}. */
    public static Visibility parse(String s, String field) {
        return switch (s) {
            case "public" -> PUBLIC;
            case "unlisted" -> UNLISTED;
            case "private" -> PRIVATE;
            default -> throw GatewayError.invalid(field, field + ": expected public, unlisted or private, got '" + s + "'")
                    .toException();
        };
    }
}
