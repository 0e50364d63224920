package dev.switchboard.engine.extend;

import dev.switchboard.model.WireName;

/** Which of the caller's texts a rewrite rule works on: the last user message (the default) or every user message. */
public enum RuleTarget implements WireName {
    LAST_USER, ALL_USER;

    /** Parses {@code last_user | all_user}; anything else is a 400 naming {@code field}. */
    public static RuleTarget parse(String s, String field) {
        return WireName.parse(values(), s, field);
    }
}
