package dev.switchboard.engine.extend;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The storage port of what only skills have: owned creation with a per-user cap, forks, use counts and
 * installations. Same guarantees as {@link CatalogStore}: atomic methods, counts changed in the database.
 */
public interface SkillStore {

    /** What {@link #create} and {@link #fork} did. */
    enum Created {
        CREATED,
        /** The owner has {@code maxPerOwner} skills already; nothing was written. */
        LIMIT_REACHED,
        /** (fork only) The source skill does not exist (any more). */
        NO_SOURCE
    }

    /** Saves a new skill of {@code skill.ownerId()} unless that user owns {@code maxPerOwner} skills already. */
    Created create(Skill skill, int maxPerOwner);

    /**
     * Saves {@code copy} (a fork, {@code forkedFrom} set) and adds one to its source's {@code forks}, both or
     * neither.
     */
    Created fork(Skill copy, int maxPerOwner);

    /** Adds one to the {@code use_count} of each skill named (once per id given, duplicates count). */
    default void recordUse(Collection<String> skillIds) {
        recordUses(SkillLookup.counts(skillIds));
    }

    /**
     * Adds each count to its skill's {@code use_count}, all in one transaction (all or none), each as a relative
     * update in the database, so counts from several instances add up. Unknown ids are ignored.
     */
    void recordUses(Map<String, Long> counts);

    /**
     * Installs the skill for the user, or, when installed already, replaces its models and keeps its place.
     *
     * @return false when there is no such skill
     */
    boolean install(String userId, String skillId, List<String> models, Instant at);

    /** Whether it was installed. */
    boolean uninstall(String userId, String skillId);

    /** The user's installed skills, in install order. */
    List<Installation> installations(String userId);
}
