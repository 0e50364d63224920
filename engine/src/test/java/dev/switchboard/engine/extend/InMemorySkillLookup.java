package dev.switchboard.engine.extend;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link SkillLookup} over maps, for tests of what uses it: skills by id (readable as {@link Skill#readableBy}
 * says), installations per user and model, and the uses recorded.
 */
public final class InMemorySkillLookup implements SkillLookup {
    private final Map<String, Skill> skills = new LinkedHashMap<>();
    private final Map<String, List<Skill>> installed = new HashMap<>();
    private final Map<String, Long> uses = new HashMap<>();

    public Skill add(Skill skill) {
        skills.put(skill.id(), skill);
        return skill;
    }

    /** Installs {@code skill} for {@code userId} on {@code modelId}, after what is installed there already. */
    public void install(String userId, String modelId, Skill skill) {
        installed.computeIfAbsent(userId + "/" + modelId, k -> new ArrayList<>()).add(skill);
    }

    /** The uses recorded so far, by skill id. */
    public Map<String, Long> uses() {
        return uses;
    }

    @Override
    public Optional<Skill> usable(String skillId, String userId) {
        return Optional.ofNullable(skills.get(skillId)).filter(s -> s.readableBy(Optional.of(userId)));
    }

    @Override
    public List<Skill> installedFor(String userId, String modelId) {
        return List.copyOf(installed.getOrDefault(userId + "/" + modelId, List.of()));
    }

    @Override
    public void recordUses(Map<String, Long> counts) {
        counts.forEach((id, n) -> uses.merge(id, n, Long::sum));
    }
}
