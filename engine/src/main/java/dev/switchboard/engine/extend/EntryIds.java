package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Ids of catalog entries. The operator names entries ({@code code-reviewer}): lower-case letters, digits and
 * {@code . _ -}, starting with a letter or digit, at most {@value Limits#ID} characters. Users' skills get
 * generated ids ({@code skl_...}). Words that are routes of their own ({@code /v1/skills/user}) are never ids.
 */
public final class EntryIds {
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final Set<String> RESERVED = Set.of("user", "installed", "verified", "download", "import", "export");

    private EntryIds() {
    }

    /** {@code id} checked as an operator-chosen id; a 400 naming {@code field} otherwise. */
    public static String slug(String id, String field) {
        if (!SLUG.matcher(id).matches() || id.contains("..")) {
            throw GatewayError.invalid(field, field + ": expected lower-case letters, digits, '.', '_' or '-', starting with a"
                    + " letter or digit, at most " + Limits.ID + " characters, got '" + shorten(id) + "'").toException();
        }
        if (RESERVED.contains(id)) {
            throw GatewayError.invalid(field, field + ": '" + id + "' is reserved (it is a route of its own)").toException();
        }
        return id;
    }

    /** Whether {@code id} could be an id at all; anything else is simply not found, without a lookup. */
    public static boolean plausible(String id) {
        return id.length() <= 80 && !id.isEmpty() && id.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c)
                || c == '.' || c == '_' || c == '-'));
    }

    private static String shorten(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
