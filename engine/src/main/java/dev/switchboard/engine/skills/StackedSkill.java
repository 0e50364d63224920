package dev.switchboard.engine.skills;

import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillBody;
import java.util.Objects;
import java.util.Optional;

/**
 * One skill of a {@link SkillStack}: its id, what it does, and where it came from.
 *
 * @param field the request field that named it ({@code skill}, {@code skills[1]}, {@code x-switchboard-skills}),
 *              which an error about it names; empty for an installed skill, which no field of the request named
 */
public record StackedSkill(String id, SkillBody body, Optional<String> field) {
    public StackedSkill {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(field, "field");
    }

    /** A skill the request named in {@code field}. */
    public static StackedSkill named(Skill skill, String field) {
        return new StackedSkill(skill.id(), skill.body(), Optional.of(field));
    }

    /** A skill the caller installed. */
    public static StackedSkill installed(Skill skill) {
        return new StackedSkill(skill.id(), skill.body(), Optional.empty());
    }

    /** The {@code param} of an error this skill causes: the field that named it, else {@code skill}. */
    String param() {
        return field.orElse("skill");
    }

    /** How a message names it: {@code skill 'concise'}, or {@code installed skill 'concise'}. */
    String describe() {
        return (field.isPresent() ? "skill '" : "installed skill '") + id + "'";
    }
}
