package dev.switchboard.engine.skills;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.ResponsesRequirement;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.extend.ItemHeader;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillBody;
import dev.switchboard.engine.extend.Visibility;
import dev.switchboard.wire.Json;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Skills and models for the skill tests, written as a catalog writer would write them. */
final class SkillsTestSupport {
    static final ModelEntry PLAIN = model("plain", Capabilities.TEXT_ONLY, Set.of());
    static final ModelEntry REASONING = model("thinker", new Capabilities(true, false, true, false, false), Set.of());
    static final ModelEntry NO_SAMPLING = model("strict", new Capabilities(true, false, false, false, false),
            Set.of("temperature", "top_p"));

    private SkillsTestSupport() {
    }

    static ModelEntry model(String id, Capabilities caps, Set<String> refused) {
        return new ModelEntry(id, List.of(), Optional.empty(), "t", 100_000, 4_096, caps, ReasoningProfile.NONE, Pricing.FREE,
                List.of(), List.of(new RouteTarget("p", "up-" + id)), refused, ResponsesRequirement.NOT_NEEDED, Optional.empty());
    }

    /** A public skill with the body {@code bodyJson} (single quotes stand for double quotes). */
    static Skill skill(String id, String bodyJson) {
        return skill(id, bodyJson, Optional.empty(), Visibility.PUBLIC);
    }

    static Skill skill(String id, String bodyJson, Optional<String> owner, Visibility visibility) {
        SkillBody body = SkillBody.read(Json.parse(bodyJson.replace('\'', '"')), "body");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        return new Skill(new ItemHeader(id, id, "about " + id, List.of(), t, t), owner, owner.orElse("switchboard"),
                owner.isEmpty(), visibility, body, 0, 0, 0, Optional.empty());
    }

    static StackedSkill named(String id, String bodyJson, String field) {
        return StackedSkill.named(skill(id, bodyJson), field);
    }
}
