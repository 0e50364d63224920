package dev.switchboard.wire.responses;

import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.opt;
import static dev.switchboard.wire.internal.JsonFields.optArray;
import static dev.switchboard.wire.internal.JsonFields.optBoolean;
import static dev.switchboard.wire.internal.JsonFields.optInt;
import static dev.switchboard.wire.internal.JsonFields.optNumber;
import static dev.switchboard.wire.internal.JsonFields.optObject;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.optStringArray;
import static dev.switchboard.wire.internal.JsonFields.path;
import static dev.switchboard.wire.internal.JsonFields.requireNonEmptyString;
import static dev.switchboard.wire.internal.JsonFields.requireObject;
import static dev.switchboard.wire.internal.JsonFields.requireText;
import static dev.switchboard.wire.internal.JsonFields.wrongType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Passthrough;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Sampling;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.GatewayFields;
import dev.switchboard.wire.internal.JsonFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads a {@code POST /v1/responses} body into a {@link ResponsesRequest}, validating every field
 * it models; a refusal is a 400 naming the field. Fields that only OpenAI itself could honour and whose
 * silent loss would change the answer ({@code background}, {@code conversation}, {@code prompt}) are
 * refused; other unmodelled fields ({@code service_tier}, {@code prompt_cache_key}...) are kept as a
 * {@link Passthrough} of this format. The gateway's {@code skill} and {@code skills} are read as in every
 * format and never passed on.
 */
final class ResponsesRequestReader {
    private static final Set<String> MODELLED = Set.of("model", "input", "instructions", "previous_response_id",
            "store", "stream", "stream_options", "tools", "tool_choice", "parallel_tool_calls", "text", "reasoning",
            "max_output_tokens", "temperature", "top_p", "metadata", "truncation", "include", "user", "background",
            "conversation", "prompt", "top_logprobs");
    /** The {@code include} value asking for the answer's token log probabilities. */
    static final String LOGPROBS_INCLUDE = "message.output_text.logprobs";
    private static final Set<String> SUMMARIES = Set.of("auto", "concise", "detailed");
    private static final String EFFORTS = "none, minimal, low, medium, high, xhigh, max";
    private static final int MAX_METADATA = 16;
    private static final int MAX_METADATA_KEY = 64;
    private static final int MAX_METADATA_VALUE = 512;

    private ResponsesRequestReader() {
    }

    static ResponsesRequest read(JsonNode body) {
        ObjectNode b = JsonFields.requireBody(body);
        refuseUnsupported(b);
        String model = requireNonEmptyString(b, "model", "model");
        List<ResponsesToolReader.ToolList> additionalTools = new ArrayList<>();
        List<ResponsesItem> input = input(b, additionalTools);
        Optional<String> instructions = optString(b, "instructions", "instructions");
        Optional<String> previous = optString(b, "previous_response_id", "previous_response_id");
        if (previous.isPresent() && previous.get().isBlank()) {
            throw invalid("previous_response_id", "`previous_response_id` must not be empty.");
        }
        boolean store = optBoolean(b, "store", "store").orElse(true);
        boolean stream = optBoolean(b, "stream", "stream").orElse(false);
        optObject(b, "stream_options", "stream_options");
        List<String> include = optStringArray(b, "include", "include").orElse(List.of());
        OptionalInt topLogprobs = optInt(b, "top_logprobs", "top_logprobs", 0, 20);
        // Asked for by the include value (OpenAI's way) or by wanting alternatives.
        OptionalInt logprobs = include.contains(LOGPROBS_INCLUDE) || topLogprobs.orElse(0) > 0
                ? OptionalInt.of(topLogprobs.orElse(0)) : OptionalInt.empty();

        ResponsesToolReader.Result tools = ResponsesToolReader.read(b, additionalTools);
        Optional<Double> temperature = optNumber(b, "temperature", "temperature", 0, 2);
        Optional<Double> topP = optNumber(b, "top_p", "top_p", 0, 1);
        OptionalInt maxOutput = optInt(b, "max_output_tokens", "max_output_tokens", 1, Integer.MAX_VALUE);
        Optional<Boolean> parallel = optBoolean(b, "parallel_tool_calls", "parallel_tool_calls");
        Map<String, String> metadata = metadata(b);
        boolean truncate = truncation(b);
        Optional<String> user = optString(b, "user", "user");
        ReasoningRead reasoning = reasoning(b);
        FormatRead format = text(b);

        ChatRequest settings = ChatRequest.builder(model)
                .tools(tools.tools())
                .toolChoice(tools.choice())
                .parallelToolCalls(parallel)
                .sampling(Sampling.DEFAULT.withTemperature(temperature).withTopP(topP))
                .maxTokens(maxOutput)
                .stream(stream)
                .reasoning(reasoning.canonical())
                .responseFormat(format.canonical())
                .transforms(truncate ? List.of(GatewayFields.MIDDLE_OUT) : GatewayFields.transforms(b))
                .fallbackModels(GatewayFields.fallbacks(b))
                .skills(GatewayFields.skills(b))
                .ignoreDefaults(GatewayFields.ignoreDefaults(b))
                .user(user)
                .metadata(metadata)
                .passthrough(passthrough(b, reasoning.extras()))
                .logprobs(logprobs)
                .build();

        ObjectNode echo = Json.object();
        echo.put("instructions", instructions.orElse(null));
        if (maxOutput.isPresent()) {
            echo.put("max_output_tokens", maxOutput.getAsInt());
        } else {
            echo.putNull("max_output_tokens");
        }
        ObjectNode meta = echo.putObject("metadata");
        metadata.forEach(meta::put);
        echo.put("parallel_tool_calls", parallel.orElse(true));
        echo.put("previous_response_id", previous.orElse(null));
        echo.set("reasoning", reasoning.echo());
        echo.put("store", store);
        echo.put("temperature", temperature.orElse(null));
        echo.set("text", format.echo());
        echo.set("tool_choice", tools.echoChoice());
        echo.set("tools", tools.echoTools());
        echo.put("top_p", topP.orElse(null));
        echo.put("truncation", truncate ? "auto" : "disabled");
        user.ifPresent(u -> echo.put("user", u));
        return new ResponsesRequest(model, input, instructions, previous, store, stream, settings, echo, tools.dropped());
    }

    private static void refuseUnsupported(ObjectNode b) {
        if (optBoolean(b, "background", "background").orElse(false)) {
            throw invalid("background", "Background responses are not supported; omit `background` or set it to false.");
        }
        if (opt(b, "conversation").isPresent()) {
            throw invalid("conversation", "`conversation` is not supported; chain responses with `previous_response_id`.");
        }
        if (opt(b, "prompt").isPresent()) {
            throw invalid("prompt", "Stored prompt templates (`prompt`) are not supported; send `instructions` and `input`.");
        }
    }

    /**
     * The input items. {@code additional_tools} items (Codex sends its tools that way, each with
     * {@code role: developer} and a {@code tools} array) are not conversation: their tools join the request's
     * {@code tools} (collected in {@code additionalTools}) and the item itself is left out.
     */
    private static List<ResponsesItem> input(ObjectNode b, List<ResponsesToolReader.ToolList> additionalTools) {
        JsonNode input = opt(b, "input").orElseThrow(() -> invalid("input", "`input` is required."));
        if (input.isTextual()) {
            return List.of(new ResponsesItem.Message(Optional.empty(), ResponsesItem.Role.USER, List.of(new ResponsesPart.InputText(input.textValue())),
                    "completed"));
        }
        if (!(input instanceof ArrayNode a)) {
            throw wrongType("input", "a string or an array of items", input);
        }
        if (a.isEmpty()) {
            throw invalid("input", "`input` must contain at least one item.");
        }
        List<ResponsesItem> items = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            String p = index("input", i);
            JsonNode item = a.get(i);
            if (item instanceof ObjectNode o && o.path("type").asText("").equals("additional_tools")) {
                additionalTools.add(new ResponsesToolReader.ToolList(optArray(o, "tools", path(p, "tools"))
                        .orElseThrow(() -> invalid(path(p, "tools"), "`" + path(p, "tools") + "` is required.")), path(p, "tools")));
            } else {
                items.add(ResponsesItemReader.item(item, p));
            }
        }
        if (items.isEmpty()) {
            throw invalid("input", "`input` must contain at least one item besides `additional_tools`.");
        }
        return items;
    }

    private static Map<String, String> metadata(ObjectNode b) {
        Optional<ObjectNode> m = optObject(b, "metadata", "metadata");
        if (m.isEmpty()) {
            return Map.of();
        }
        if (m.get().size() > MAX_METADATA) {
            throw invalid("metadata", "`metadata` takes at most " + MAX_METADATA + " pairs, got " + m.get().size() + ".");
        }
        Map<String, String> out = new LinkedHashMap<>();
        m.get().properties().forEach(e -> {
            String p = path("metadata", e.getKey());
            String value = requireText(e.getValue(), p);
            if (e.getKey().length() > MAX_METADATA_KEY || value.length() > MAX_METADATA_VALUE) {
                throw invalid(p, "`metadata` keys are at most " + MAX_METADATA_KEY + " characters and values at most "
                        + MAX_METADATA_VALUE + ".");
            }
            out.put(e.getKey(), value);
        });
        return out;
    }

    /** {@code truncation: "auto"} is the service's middle-out transform: drop whole middle turns on overflow. */
    private static boolean truncation(ObjectNode b) {
        String t = optString(b, "truncation", "truncation").orElse("disabled");
        return switch (t) {
            case "auto" -> true;
            case "disabled" -> false;
            default -> throw invalid("truncation", "`truncation` must be \"auto\" or \"disabled\"; got \"" + t + "\".");
        };
    }

    /** {@code extras}: the fields of {@code reasoning} the canonical model has no word for ({@code context}...). */
    private record ReasoningRead(Reasoning canonical, ObjectNode echo, ObjectNode extras) {
    }

    private static ReasoningRead reasoning(ObjectNode b) {
        ObjectNode echo = Json.object();
        Optional<ObjectNode> r = optObject(b, "reasoning", "reasoning");
        Optional<Reasoning.Effort> effort = r.flatMap(o -> optString(o, "effort", "reasoning.effort")).map(s ->
                Reasoning.Effort.parse(s).orElseThrow(() -> invalid("reasoning.effort",
                        "`reasoning.effort` must be one of " + EFFORTS + "; got \"" + s + "\".")));
        // generate_summary is the deprecated name of summary; the current name wins.
        Optional<String> summary = r.flatMap(o -> optString(o, "summary", "reasoning.summary")
                .or(() -> optString(o, "generate_summary", "reasoning.generate_summary")));
        summary.ifPresent(s -> {
            if (!SUMMARIES.contains(s)) {
                throw invalid("reasoning.summary", "`reasoning.summary` must be auto, concise or detailed; got \""
                        + s + "\".");
            }
        });
        echo.put("effort", effort.map(Reasoning.Effort::wire).orElse(null));
        echo.put("summary", summary.orElse(null));
        Reasoning canonical = new Reasoning(effort, Optional.empty(), OptionalInt.empty(), Reasoning.Format.SEPARATE,
                false, summary);
        return new ReasoningRead(canonical, echo, extras(r, Set.of("effort", "summary", "generate_summary")));
    }

    private record FormatRead(ResponseFormat canonical, ObjectNode echo) {
    }

    /** {@code text.format}: in this format {@code name} and {@code schema} sit directly in {@code format}. */
    private static FormatRead text(ObjectNode b) {
        ObjectNode echo = Json.object();
        Optional<ObjectNode> text = optObject(b, "text", "text");
        Optional<ObjectNode> format = text.flatMap(t -> optObject(t, "format", "text.format"));
        ResponseFormat canonical = ResponseFormat.TEXT;
        if (format.isEmpty()) {
            echo.putObject("format").put("type", "text");
        } else {
            ObjectNode f = format.get();
            String type = optString(f, "type", "text.format.type")
                    .orElseThrow(() -> invalid("text.format.type", "`text.format.type` is required."));
            ObjectNode e = echo.putObject("format");
            e.put("type", type);
            switch (type) {
                case "text" -> canonical = ResponseFormat.TEXT;
                case "json_object" -> canonical = ResponseFormat.JSON_OBJECT;
                case "json_schema" -> {
                    String name = requireNonEmptyString(f, "name", "text.format.name");
                    ObjectNode schema = requireObject(opt(f, "schema").orElseThrow(() ->
                            invalid("text.format.schema", "`text.format.schema` is required when type is json_schema.")),
                            "text.format.schema");
                    Optional<String> description = optString(f, "description", "text.format.description");
                    Optional<Boolean> strict = optBoolean(f, "strict", "text.format.strict");
                    canonical = new ResponseFormat.JsonSchema(name, description, schema, strict.orElse(false));
                    e.put("name", name);
                    description.ifPresent(d -> e.put("description", d));
                    e.set("schema", schema);
                    if (strict.isPresent()) {
                        e.put("strict", strict.get());
                    } else {
                        e.putNull("strict");
                    }
                }
                default -> throw invalid("text.format.type", "`text.format.type` must be text, json_object or "
                        + "json_schema; got \"" + type + "\".");
            }
        }
        text.flatMap(t -> optString(t, "verbosity", "text.verbosity")).ifPresent(v -> {
            if (!Set.of("low", "medium", "high").contains(v)) {
                throw invalid("text.verbosity", "`text.verbosity` must be low, medium or high; got \"" + v + "\".");
            }
            echo.put("verbosity", v);
        });
        return new FormatRead(canonical, echo);
    }

    /** The fields of {@code node} outside {@code modelled}; empty when there are none. */
    private static ObjectNode extras(Optional<ObjectNode> node, Set<String> modelled) {
        ObjectNode rest = Json.object();
        node.ifPresent(n -> n.properties().forEach(e -> {
            if (!modelled.contains(e.getKey()) && !e.getValue().isNull()) {
                rest.set(e.getKey(), e.getValue().deepCopy());
            }
        }));
        return rest;
    }

    /**
     * What only an upstream of this format can take: the unmodelled top-level fields ({@code client_metadata},
     * {@code prompt_cache_key}...), the unmodelled part of {@code reasoning} ({@code context}) under
     * {@code reasoning}, and {@code text.verbosity} as {@code verbosity} (its chat-completions name), the one
     * field of {@code text} the canonical request has no place for. Other upstreams never see them.
     */
    private static Passthrough passthrough(ObjectNode b, ObjectNode reasoningExtras) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        if (!reasoningExtras.isEmpty()) {
            fields.put("reasoning", reasoningExtras);
        }
        b.properties().forEach(e -> {
            if (!MODELLED.contains(e.getKey()) && !GatewayFields.NAMES.contains(e.getKey()) && !e.getValue().isNull()) {
                fields.put(e.getKey(), e.getValue());
            }
        });
        JsonNode verbosity = b.path("text").path("verbosity");
        if (verbosity.isTextual()) {
            fields.put("verbosity", verbosity);
        }
        return fields.isEmpty() ? Passthrough.NONE : new Passthrough(Responses.FORMAT, fields);
    }
}
