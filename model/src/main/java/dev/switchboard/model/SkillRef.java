package dev.switchboard.model;

import java.util.Objects;

/**
 * A marketplace skill a request names ({@code skill}, {@code skills}, or the {@code x-switchboard-skills}
 * header), in the order the caller gave them. The engine resolves and applies it; it is never sent upstream.
 *
 * @param id    the skill's id as the caller wrote it
 * @param field where the caller wrote it, as an error about it should name it: {@code skill},
 *              {@code skills[1]}, {@code x-switchboard-skills}
 */
public record SkillRef(String id, String field) {
    public SkillRef {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(field, "field");
    }
}
