package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a skill does to a chat request (spec 2.11): a system prompt put before the caller's, ordered
 * input-rewrite rules over the caller's text, and parameter hints. At least one of the three is there.
 * A skill is untrusted text: it becomes system and user text only, never tools, routes, models or keys.
 */
public record SkillBody(Optional<String> systemPrompt, List<RewriteRule> rules, SkillHints hints) {
    public SkillBody {
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        rules = List.copyOf(rules);
        Objects.requireNonNull(hints, "hints");
    }

    /**
     * Reads and checks a {@code body} object as a caller sent it: sizes, rule shapes, RE2 patterns and their
     * replacement references. Every refusal is a 400 naming the field ({@code body.rules[1].find}).
     */
    public static SkillBody read(JsonNode node, String path) {
        return read(JsonInput.of(node, path));
    }

    /** Reads a body the gateway stored itself (shapes checked, lengths not). */
    public static SkillBody stored(JsonNode node) {
        return read(JsonInput.stored(node, "body"));
    }

    static SkillBody read(JsonInput in) {
        in.allowOnly(Set.of("system_prompt", "rules", "hints"), Set.of());
        Optional<String> prompt = in.text("system_prompt", Limits.SYSTEM_PROMPT, false).filter(p -> !p.isBlank());
        List<RewriteRule> rules = in.objects("rules", Limits.RULES).stream().map(RewriteRule::read).toList();
        SkillHints hints = in.object("hints").map(SkillHints::read).orElse(SkillHints.NONE);
        if (prompt.isEmpty() && rules.isEmpty() && hints.isEmpty()) {
            throw GatewayError.invalid(in.path(), in.path() + ": expected a system_prompt, rules or hints (a skill that"
                    + " does nothing is refused)").toException();
        }
        return new SkillBody(prompt, rules, hints);
    }

    public ObjectNode toJson() {
        ObjectNode o = Json.object();
        systemPrompt.ifPresent(p -> o.put("system_prompt", p));
        ArrayNode r = o.putArray("rules");
        rules.forEach(rule -> r.add(rule.toJson()));
        o.set("hints", hints.toJson());
        return o;
    }
}
