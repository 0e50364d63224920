package dev.switchboard.engine.extend;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the chat pipeline needs of skills: which skill an id names for a caller, which skills the caller
 * installed, and counting the uses of applied skills. Every method reads the database (shared by every
 * instance); caching, if any, is the caller's choice.
 */
public interface SkillLookup {
    /** No skills at all: every id is unknown, nothing is installed, uses go nowhere. */
    SkillLookup NONE = new SkillLookup() {
        @Override
        public Optional<Skill> usable(String skillId, String userId) {
            return Optional.empty();
        }

        @Override
        public List<Skill> installedFor(String userId, String modelId) {
            return List.of();
        }

        @Override
        public void recordUses(Map<String, Long> counts) {
        }
    };

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
     * concurrency: one relative update per skill in the database.
     */
    default void recordUse(Collection<String> skillIds) {
        recordUses(counts(skillIds));
    }

    /** Adds each count to its skill's {@code use_count}, in one transaction; exact under concurrency. */
    void recordUses(Map<String, Long> counts);

    /** How often each id occurs in {@code skillIds}. */
    static Map<String, Long> counts(Collection<String> skillIds) {
        Map<String, Long> counts = new LinkedHashMap<>();
        skillIds.forEach(id -> counts.merge(id, 1L, Long::sum));
        return counts;
    }
}
