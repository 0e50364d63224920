package dev.switchboard.engine.defaults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Sampling;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Reads the JSON document of saved defaults (the admin API's body, with chat-completions parameter names)
 * into canonical values. It checks JSON types and names only, each failure a 400 naming the field; the
 * ranges are checked on the canonical values by {@link DefaultParams}. A JSON {@code null} means "not
 * set", as in a request.
 */
final class DefaultParamsReader {
    private final ObjectNode params;

    DefaultParamsReader(ObjectNode params) {
        this.params = params;
    }

    DefaultParams read() {
        OptionalInt maxTokens = integer("max_completion_tokens");
        if (maxTokens.isEmpty()) {
            maxTokens = integer("max_tokens");
        }
        Optional<ResponseFormat> format = field("response_format").map(this::responseFormat)
                .filter(f -> !(f instanceof ResponseFormat.Text));
        return new DefaultParams(sampling(), maxTokens, stop(), reasoning(), format, strings("transforms"));
    }

    private Sampling sampling() {
        OptionalLong seed = field("seed").map(v -> {
            if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                throw wrongType("seed", "an integer", v);
            }
            return OptionalLong.of(v.longValue());
        }).orElse(OptionalLong.empty());
        return new Sampling(number("temperature"), number("top_p"), integer("top_k"), number("presence_penalty"),
                number("frequency_penalty"), seed);
    }

    private List<String> stop() {
        Optional<JsonNode> v = field("stop");
        if (v.isPresent() && v.get().isTextual()) {
            return List.of(v.get().textValue());
        }
        return strings("stop");
    }

    private Reasoning reasoning() {
        Optional<Reasoning.Effort> effort = text("reasoning_effort").map(s -> Reasoning.Effort.parse(s).orElseThrow(
                () -> invalid("reasoning_effort", "`reasoning_effort` must be one of " + DefaultParams.EFFORTS
                        + "; got \"" + s + "\".")));
        Optional<Reasoning.Mode> mode = Optional.empty();
        OptionalInt budget = OptionalInt.empty();
        Optional<JsonNode> thinking = field("thinking");
        if (thinking.isPresent() && thinking.get().isTextual()) {
            mode = Optional.of(switch (thinking.get().textValue()) {
                case "on" -> Reasoning.Mode.ON;
                case "off" -> Reasoning.Mode.OFF;
                case "auto" -> Reasoning.Mode.AUTO;
                default -> throw invalid("thinking", "`thinking` must be \"on\", \"off\", \"auto\" or an object "
                        + "{type: enabled|disabled|adaptive}; got \"" + thinking.get().textValue() + "\".");
            });
        } else if (thinking.isPresent() && thinking.get() instanceof ObjectNode t) {
            String type = new DefaultParamsReader(t).text("type")
                    .orElseThrow(() -> invalid("thinking.type", "`thinking.type` is required."));
            mode = Optional.of(switch (type) {
                case "enabled" -> Reasoning.Mode.ON;
                case "disabled" -> Reasoning.Mode.OFF;
                case "adaptive" -> Reasoning.Mode.AUTO;
                default -> throw invalid("thinking.type", "`thinking.type` must be enabled, disabled or adaptive; got \""
                        + type + "\".");
            });
            budget = new DefaultParamsReader(t).integer("budget_tokens");
        } else if (thinking.isPresent()) {
            throw wrongType("thinking", "a string or an object", thinking.get());
        }
        if (budget.isEmpty()) {
            budget = integer("thinking_budget");
        }
        return new Reasoning(effort, mode, budget, Reasoning.Format.SEPARATE, false, Optional.empty());
    }

    private ResponseFormat responseFormat(JsonNode v) {
        if (!(v instanceof ObjectNode rf)) {
            throw wrongType("response_format", "an object", v);
        }
        DefaultParamsReader r = new DefaultParamsReader(rf);
        String type = r.text("type").orElseThrow(() -> invalid("response_format.type", "`response_format.type` is required."));
        return switch (type) {
            case "text" -> ResponseFormat.TEXT;
            case "json_object" -> ResponseFormat.JSON_OBJECT;
            case "json_schema" -> {
                if (!(rf.get("json_schema") instanceof ObjectNode js)) {
                    throw invalid("response_format.json_schema", "`response_format.json_schema` must be an object "
                            + "{name, schema, strict} when type is json_schema.");
                }
                DefaultParamsReader s = new DefaultParamsReader(js);
                String name = s.text("name").filter(n -> !n.isEmpty()).orElseThrow(() -> invalid(
                        "response_format.json_schema.name", "`response_format.json_schema.name` is required."));
                JsonNode schema = s.field("schema").orElseGet(Json::object);
                if (!schema.isObject()) {
                    throw wrongType("response_format.json_schema.schema", "an object", schema);
                }
                boolean strict = s.field("strict").map(b -> {
                    if (!b.isBoolean()) {
                        throw wrongType("response_format.json_schema.strict", "a boolean", b);
                    }
                    return b.booleanValue();
                }).orElse(false);
                yield new ResponseFormat.JsonSchema(name, s.text("description"), schema, strict);
            }
            default -> throw invalid("response_format.type", "`response_format.type` must be text, json_object or "
                    + "json_schema; got \"" + type + "\".");
        };
    }

    private Optional<JsonNode> field(String name) {
        JsonNode v = params.get(name);
        return v == null || v.isNull() ? Optional.empty() : Optional.of(v);
    }

    private Optional<String> text(String name) {
        return field(name).map(v -> {
            if (!v.isTextual()) {
                throw wrongType(name, "a string", v);
            }
            return v.textValue();
        });
    }

    private Optional<Double> number(String name) {
        return field(name).map(v -> {
            if (!v.isNumber()) {
                throw wrongType(name, "a number", v);
            }
            return v.doubleValue();
        });
    }

    private OptionalInt integer(String name) {
        Optional<JsonNode> v = field(name);
        if (v.isEmpty()) {
            return OptionalInt.empty();
        }
        if (!v.get().isIntegralNumber() || !v.get().canConvertToInt()) {
            throw wrongType(name, "a whole number", v.get());
        }
        return OptionalInt.of(v.get().intValue());
    }

    private List<String> strings(String name) {
        Optional<JsonNode> v = field(name);
        if (v.isEmpty()) {
            return List.of();
        }
        if (!v.get().isArray()) {
            throw wrongType(name, "an array of strings", v.get());
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.get().size(); i++) {
            JsonNode s = v.get().get(i);
            if (!s.isTextual()) {
                throw wrongType(name + "[" + i + "]", "a string", s);
            }
            out.add(s.textValue());
        }
        return out;
    }

    static GatewayException invalid(String field, String message) {
        return GatewayError.invalid(field, message).toException();
    }

    private static GatewayException wrongType(String field, String expected, JsonNode found) {
        return invalid(field, "`" + field + "` must be " + expected + ", got " + found.getNodeType().name().toLowerCase(
                java.util.Locale.ROOT) + ".");
    }
}
