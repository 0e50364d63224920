package dev.switchboard.engine.account;

import java.util.regex.Pattern;

/** Shared checks for request fields; each failure names the field and says what was expected. */
final class AccountFields {

    static final int MAX_NAME_LENGTH = 100;
    private static final Pattern PLAN = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,31}");
    // Deliberately loose: the only promise is "looks like an address"; delivery proves the rest.
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");
    private static final int MAX_EMAIL_LENGTH = 254;

    private AccountFields() {
    }

    /** A human-readable name: trimmed, 1..100 characters, no control characters. */
    static String name(String field, String value) {
        String v = value.strip();
        if (v.isEmpty()) {
            throw AccountException.invalid(field, field + ": expected a non-empty name");
        }
        if (v.length() > MAX_NAME_LENGTH) {
            throw AccountException.invalid(field, field + ": expected at most " + MAX_NAME_LENGTH
                    + " characters, got " + v.length());
        }
        if (v.chars().anyMatch(Character::isISOControl)) {
            throw AccountException.invalid(field, field + ": expected no control characters");
        }
        return v;
    }

    static String plan(String value) {
        if (!PLAN.matcher(value).matches()) {
            throw AccountException.invalid("plan",
                    "plan: expected a plan id like \"payg\" or \"pro\" (lower-case letters, digits, '_', '.', '-'; at most 32)");
        }
        return value;
    }

    /** Trimmed and lower-cased, so uniqueness does not depend on how someone typed it. */
    static String email(String value) {
        String v = value.strip().toLowerCase(java.util.Locale.ROOT);
        if (v.length() > MAX_EMAIL_LENGTH || !EMAIL.matcher(v).matches()) {
            throw AccountException.invalid("email", "email: expected an address like name@example.com");
        }
        return v;
    }

    static long positive(String field, long value) {
        if (value <= 0) {
            throw AccountException.invalid(field, field + ": expected a positive number, got " + value);
        }
        return value;
    }
}
