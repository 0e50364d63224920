package dev.switchboard.wire.openai;

import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.optBoolean;
import static dev.switchboard.wire.internal.JsonFields.optInt;
import static dev.switchboard.wire.internal.JsonFields.optObject;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.wrongType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Reasoning.Effort;
import dev.switchboard.model.Reasoning.Mode;
import dev.switchboard.wire.internal.JsonFields;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the reasoning controls of spec 2.4 into one {@link Reasoning}: {@code reasoning_effort},
 * {@code thinking} (string or object), {@code thinking_budget} and the service's {@code reasoning}
 * object. Where two controls say the same thing the more specific wins: top-level
 * {@code reasoning_effort} over {@code reasoning.effort}, {@code thinking.budget_tokens} over
 * {@code thinking_budget} over {@code reasoning.max_tokens}, {@code thinking} over
 * {@code reasoning.enabled}.
 */
final class OpenAiClientReasoningReader {
    private static final String EFFORTS = "none, minimal, low, medium, high, xhigh, max";

    private OpenAiClientReasoningReader() {
    }

    static Reasoning read(ObjectNode body) {
        Optional<Effort> effort = effort(body, "reasoning_effort", "reasoning_effort");
        Optional<Mode> mode = Optional.empty();
        OptionalInt budget = OptionalInt.empty();

        Optional<JsonNode> thinking = JsonFields.opt(body, "thinking");
        if (thinking.isPresent()) {
            JsonNode t = thinking.get();
            if (t.isTextual()) {
                mode = Optional.of(switch (t.textValue()) {
                    case "on" -> Mode.ON;
                    case "off" -> Mode.OFF;
                    case "auto" -> Mode.AUTO;
                    default -> throw invalid("thinking", "`thinking` must be \"on\", \"off\", \"auto\" or an object "
                            + "{type: enabled|disabled|adaptive}; got \"" + t.textValue() + "\".");
                });
            } else if (t.isObject()) {
                String type = optString(t, "type", "thinking.type")
                        .orElseThrow(() -> invalid("thinking.type", "`thinking.type` is required."));
                mode = Optional.of(switch (type) {
                    case "enabled" -> Mode.ON;
                    case "disabled" -> Mode.OFF;
                    case "adaptive" -> Mode.AUTO;
                    default -> throw invalid("thinking.type", "`thinking.type` must be enabled, disabled or "
                            + "adaptive; got \"" + type + "\".");
                });
                budget = optInt(t, "budget_tokens", "thinking.budget_tokens", 0, Integer.MAX_VALUE);
            } else {
                throw wrongType("thinking", "a string or an object", t);
            }
        }
        if (budget.isEmpty()) {
            budget = optInt(body, "thinking_budget", "thinking_budget", 0, Integer.MAX_VALUE);
        }

        Reasoning.Format format = Reasoning.Format.SEPARATE;
        boolean exclude = false;
        Optional<String> summary = Optional.empty();
        Optional<ObjectNode> r = optObject(body, "reasoning", "reasoning");
        if (r.isPresent()) {
            ObjectNode o = r.get();
            Optional<String> f = optString(o, "format", "reasoning.format");
            if (f.isPresent()) {
                format = switch (f.get()) {
                    case "separate" -> Reasoning.Format.SEPARATE;
                    case "inline" -> Reasoning.Format.INLINE;
                    default -> throw invalid("reasoning.format", "`reasoning.format` must be \"separate\" or "
                            + "\"inline\"; got \"" + f.get() + "\".");
                };
            }
            exclude = optBoolean(o, "exclude", "reasoning.exclude").orElse(false);
            summary = optString(o, "summary", "reasoning.summary");
            if (effort.isEmpty()) {
                effort = effort(o, "effort", "reasoning.effort");
            }
            if (budget.isEmpty()) {
                budget = optInt(o, "max_tokens", "reasoning.max_tokens", 0, Integer.MAX_VALUE);
            }
            if (mode.isEmpty()) {
                mode = optBoolean(o, "enabled", "reasoning.enabled").map(on -> on ? Mode.ON : Mode.OFF);
            }
        }
        return new Reasoning(effort, mode, budget, format, exclude, summary);
    }

    private static Optional<Effort> effort(JsonNode owner, String name, String p) {
        return optString(owner, name, p).map(s -> Effort.parse(s).orElseThrow(() -> invalid(p,
                "`" + p + "` must be one of " + EFFORTS + "; got \"" + s + "\".")));
    }
}
