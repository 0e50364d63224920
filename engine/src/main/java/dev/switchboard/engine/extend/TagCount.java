package dev.switchboard.engine.extend;

/** A tag and how many listed entries carry it. */
public record TagCount(String tag, long count) {
}
