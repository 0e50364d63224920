package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;

/** Which of the caller's texts a rewrite rule works on: the last user message (the default) or every user message. */
public enum RuleTarget {
    LAST_USER("last_user"), ALL_USER("all_user");

    private final String wire;

    RuleTarget(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static RuleTarget parse(String s, String field) {
        for (RuleTarget t : values()) {
            if (t.wire.equals(s)) {
                return t;
            }
        }
        throw GatewayError.invalid(field, field + ": expected last_user or all_user, got '" + s + "'").toException();
    }
}
