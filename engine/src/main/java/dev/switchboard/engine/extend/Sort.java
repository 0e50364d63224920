package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;

/**
 * Orders of list answers. {@code POPULAR} (the default): most likes, uses, forks and interactions together
 * first, then official entries, then by name. {@code RECENT}: newest first. {@code LIKES}: most liked first.
 * {@code NAME}: alphabetical, case-insensitive. Ties always fall back to the id, so pages never overlap.
 */
public enum Sort {
    POPULAR, RECENT, LIKES, NAME;

    public static Sort parse(String s) {
        return switch (s) {
            case "popular" -> POPULAR;
            case "recent" -> RECENT;
            case "likes" -> LIKES;
            case "name" -> NAME;
            default -> throw GatewayError.invalid("sort", "sort: expected popular, recent, likes or name, got '"
                    + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "'").toException();
        };
    }
}
