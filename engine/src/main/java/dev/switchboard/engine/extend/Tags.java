package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Free-form labels, normalized so that matching never depends on how someone typed them: trimmed, inner
 * whitespace collapsed to one space, lower-cased; 1 to {@value Limits#TAG} characters, no commas (the
 * {@code tags} query parameter is comma-separated) and no control characters. Duplicates are dropped, the
 * first occurrence keeps its place.
 */
public final class Tags {
    private Tags() {
    }

    /** One tag, normalized; a 400 naming {@code field} when unusable. */
    public static String normalize(String raw, String field) {
        String t = raw.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            throw GatewayError.invalid(field, field + ": expected a non-empty tag").toException();
        }
        if (t.length() > Limits.TAG) {
            throw GatewayError.invalid(field, field + ": expected at most " + Limits.TAG + " characters, got " + t.length())
                    .toException();
        }
        if (t.indexOf(',') >= 0 || t.chars().anyMatch(Character::isISOControl)) {
            throw GatewayError.invalid(field, field + ": a tag may not contain commas or control characters").toException();
        }
        return t;
    }

    /** Every tag normalized (field names {@code field[i]}), duplicates removed. */
    public static List<String> normalize(List<String> raw, String field) {
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < raw.size(); i++) {
            out.add(normalize(raw.get(i), field + "[" + i + "]"));
        }
        return List.copyOf(out);
    }

    /** The tags of a {@code tags=a,b} query: split on commas, blanks ignored, at most {@value Limits#FILTER_TAGS}. */
    public static List<String> ofQuery(String raw) {
        List<String> out = new ArrayList<>();
        for (String part : raw.split(",")) {
            if (!part.isBlank()) {
                out.add(normalize(part, "tags"));
            }
        }
        if (out.size() > Limits.FILTER_TAGS) {
            throw GatewayError.invalid("tags", "tags: expected at most " + Limits.FILTER_TAGS + " tags, got " + out.size())
                    .toException();
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }
}
