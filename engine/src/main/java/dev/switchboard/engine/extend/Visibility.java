package dev.switchboard.engine.extend;

import dev.switchboard.model.WireName;

/**
 * Who sees a skill. {@code PUBLIC}: listed and readable by anyone. {@code UNLISTED}: readable and usable by
 * anyone who has its id, never listed. {@code PRIVATE}: its owner only; to anyone else it does not exist (404).
 * Operator entries are always public.
 */
public enum Visibility implements WireName {
    PUBLIC, UNLISTED, PRIVATE;

    /** Parses {@code public | unlisted | private}; anything else is a 400 naming {@code field}. */
    public static Visibility parse(String s, String field) {
        return WireName.parse(values(), s, field);
    }
}
