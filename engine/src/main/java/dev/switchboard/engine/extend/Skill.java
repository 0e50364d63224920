package dev.switchboard.engine.extend;

import java.util.Objects;
import java.util.Optional;

/**
 * A skill (spec 2.11): a named, shareable {@link SkillBody} with its author and community counts.
 *
 * @param ownerId         the user who created it; empty for the operator's (official) skills
 * @param creatorUsername the author's name as shown
 * @param forkedFrom      the skill this one was forked from, kept even when that one is deleted (provenance)
 */
public record Skill(ItemHeader head, Optional<String> ownerId, String creatorUsername, boolean official,
                    Visibility visibility, SkillBody body, long likes, long useCount, long forks,
                    Optional<String> forkedFrom) implements CatalogItem {
    public Skill {
        Objects.requireNonNull(ownerId, "ownerId");
        Objects.requireNonNull(creatorUsername, "creatorUsername");
        Objects.requireNonNull(visibility, "visibility");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(forkedFrom, "forkedFrom");
    }

    @Override
    public ItemKind kind() {
        return ItemKind.SKILL;
    }

    public boolean ownedBy(String userId) {
        return ownerId.filter(userId::equals).isPresent();
    }

    /** Whether {@code userId} (empty: an anonymous reader) may read and use it by id. */
    public boolean readableBy(Optional<String> userId) {
        return visibility != Visibility.PRIVATE || userId.filter(this::ownedBy).isPresent();
    }
}
