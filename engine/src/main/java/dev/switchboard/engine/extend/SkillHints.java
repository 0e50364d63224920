package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Parameter suggestions of a skill (spec 2.11). They never override a value the caller set explicitly and
 * never exceed the model's limits; applying them is the chat pipeline's job.
 */
public record SkillHints(OptionalDouble temperature, OptionalDouble topP, OptionalInt maxTokens, Optional<String> reasoningEffort) {
    public static final SkillHints NONE = new SkillHints(OptionalDouble.empty(), OptionalDouble.empty(), OptionalInt.empty(),
            Optional.empty());
    public static final List<String> EFFORTS = List.of("low", "medium", "high", "xhigh", "max");

    public SkillHints {
        Objects.requireNonNull(temperature, "temperature");
        Objects.requireNonNull(topP, "topP");
        Objects.requireNonNull(maxTokens, "maxTokens");
        Objects.requireNonNull(reasoningEffort, "reasoningEffort");
    }

    public boolean isEmpty() {
        return equals(NONE);
    }

    static SkillHints read(JsonInput in) {
        in.allowOnly(Set.of("temperature", "top_p", "max_tokens", "reasoning_effort"), Set.of());
        OptionalDouble temperature = in.number("temperature", 0, 2);
        OptionalDouble topP = in.number("top_p", 0, 1);
        OptionalInt maxTokens = in.integer("max_tokens", 1, 1_000_000).stream().mapToInt(l -> (int) l).findFirst();
        Optional<String> effort = in.text("reasoning_effort", 16, true);
        if (effort.isPresent() && !EFFORTS.contains(effort.get())) {
            throw GatewayError.invalid(in.field("reasoning_effort"), in.field("reasoning_effort") + ": expected one of "
                    + String.join(", ", EFFORTS) + ", got '" + effort.get() + "'").toException();
        }
        return new SkillHints(temperature, topP, maxTokens, effort);
    }

    public ObjectNode toJson() {
        ObjectNode o = Json.object();
        temperature.ifPresent(t -> o.put("temperature", t));
        topP.ifPresent(t -> o.put("top_p", t));
        maxTokens.ifPresent(t -> o.put("max_tokens", t));
        reasoningEffort.ifPresent(t -> o.put("reasoning_effort", t));
        return o;
    }
}
