package dev.switchboard.engine.extend;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What the chat pipeline needs of skills: which skill an id names for a caller, which skills the caller
 * installed, and counting the uses of applied skills. Every method reads the database (shared by every
 * instance); caching, if any, is the caller's choice.
 */
public interface SkillLookup {
    /**
     * The skill {@code skillId} as {@code userId} may use it: a public or unlisted skill, or one of the user's
     * own private skills. Empty for an unknown id and for another user's private skill alike (the caller
     * answers a 400 naming {@code skill} / {@code skills[i]}).
     */
    Optional<Skill> usable(String skillId, String userId);

    /**
     * The skills {@code userId} installed that apply to {@code modelId} (the canonical model id), in install
     * order; skills that are no longer usable by the user (made private by their owner) are left out.
     */
    List<Skill> installedFor(String userId, String modelId);

    /**
     * Adds one to the {@code use_count} of each skill named (a skill applied twice counts twice). Exact under
     * concurrency: one conditional update per skill in the database.
     */
    void recordUse(Collection<String> skillIds);
}
