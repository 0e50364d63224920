package dev.switchboard.wire.openai;

import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.opt;
import static dev.switchboard.wire.internal.JsonFields.optArray;
import static dev.switchboard.wire.internal.JsonFields.optBoolean;
import static dev.switchboard.wire.internal.JsonFields.optInt;
import static dev.switchboard.wire.internal.JsonFields.optLong;
import static dev.switchboard.wire.internal.JsonFields.optNumber;
import static dev.switchboard.wire.internal.JsonFields.optObject;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.optStringArray;
import static dev.switchboard.wire.internal.JsonFields.requireArray;
import static dev.switchboard.wire.internal.JsonFields.requireNonEmptyString;
import static dev.switchboard.wire.internal.JsonFields.requireText;
import static dev.switchboard.wire.internal.JsonFields.wrongType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Passthrough;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.ToolSpec;
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
 * Reads a chat-completions request body (spec 2.2, plus what the official OpenAI SDKs send) into a
 * {@link ChatRequest}, validating as it goes. Fields the canonical model does not model are kept in a
 * {@link Passthrough} for OpenAI-format upstreams; the legacy function-calling fields are refused
 * rather than silently dropped, since no other format could honour them.
 */
final class OpenAiClientRequestReader {
    /** Top-level fields read into the canonical request; every other field is passed through. */
    private static final Set<String> MODELLED = Set.of("model", "messages", "max_tokens", "max_completion_tokens",
            "temperature", "top_p", "top_k", "seed", "presence_penalty", "frequency_penalty", "stop", "stream",
            "stream_options", "tools", "tool_choice", "parallel_tool_calls", "response_format", "reasoning_effort",
            "thinking", "thinking_budget", "reasoning", "models", "transforms", "user", "metadata",
            "ignore_defaults", "skill", "skills", "logprobs", "top_logprobs");
    private static final int MAX_STOP = 4;

    private OpenAiClientRequestReader() {
    }

    static ChatRequest read(JsonNode body) {
        ObjectNode b = JsonFields.requireBody(body);
        for (String legacy : List.of("functions", "function_call")) {
            if (opt(b, legacy).isPresent()) {
                throw invalid(legacy, "Legacy `" + legacy + "` is not supported; use `tools` and `tool_choice`.");
            }
        }
        String model = requireNonEmptyString(b, "model", "model");
        ArrayNode messages = requireArray(opt(b, "messages").orElseThrow(
                () -> invalid("messages", "`messages` is required.")), "messages");
        if (messages.isEmpty()) {
            throw invalid("messages", "`messages` must contain at least one message.");
        }
        OpenAiClientMessageReader.Result conversation = OpenAiClientMessageReader.read(messages);

        List<ToolSpec> tools = optArray(b, "tools", "tools").map(OpenAiClientToolReader::tools).orElse(List.of());
        ChatRequest.Builder r = ChatRequest.builder(model)
                .system(conversation.system())
                .messages(conversation.messages())
                .tools(tools)
                .sampling(sampling(b))
                .maxTokens(maxTokens(b))
                .stop(stop(b))
                .stream(optBoolean(b, "stream", "stream").orElse(false))
                .parallelToolCalls(optBoolean(b, "parallel_tool_calls", "parallel_tool_calls"))
                .responseFormat(optObject(b, "response_format", "response_format")
                        .map(OpenAiClientRequestReader::responseFormat).orElse(ResponseFormat.TEXT))
                .reasoning(OpenAiClientReasoningReader.read(b))
                .fallbackModels(GatewayFields.fallbacks(b))
                .transforms(GatewayFields.transforms(b))
                .user(optString(b, "user", "user"))
                .metadata(metadata(b))
                .ignoreDefaults(GatewayFields.ignoreDefaults(b))
                .skills(GatewayFields.skills(b))
                .passthrough(passthrough(b))
                .logprobs(logprobs(b));
        opt(b, "tool_choice").ifPresent(tc -> r.toolChoice(OpenAiClientToolReader.toolChoice(tc, tools)));
        // Only the shape is checked: usage is always sent on the final chunk, whatever include_usage says.
        optObject(b, "stream_options", "stream_options");
        return r.build();
    }

    private static Sampling sampling(ObjectNode b) {
        return new Sampling(
                optNumber(b, "temperature", "temperature", 0, 2),
                optNumber(b, "top_p", "top_p", 0, 1),
                optInt(b, "top_k", "top_k", 0, Integer.MAX_VALUE),
                optNumber(b, "presence_penalty", "presence_penalty", -2, 2),
                optNumber(b, "frequency_penalty", "frequency_penalty", -2, 2),
                optLong(b, "seed", "seed"));
    }

    /** {@code logprobs: true} with {@code top_logprobs} alternatives (0 to 20; 0 when not given). */
    static OptionalInt logprobs(ObjectNode b) {
        boolean on = optBoolean(b, "logprobs", "logprobs").orElse(false);
        OptionalInt top = optInt(b, "top_logprobs", "top_logprobs", 0, 20);
        if (!on && top.orElse(0) > 0) {
            throw invalid("top_logprobs", "`top_logprobs` needs `logprobs: true`.");
        }
        return on ? OptionalInt.of(top.orElse(0)) : OptionalInt.empty();
    }

    /** {@code max_completion_tokens} (current name) wins over the deprecated {@code max_tokens}. */
    private static OptionalInt maxTokens(ObjectNode b) {
        OptionalInt current = optInt(b, "max_completion_tokens", "max_completion_tokens", 1, Integer.MAX_VALUE);
        OptionalInt legacy = optInt(b, "max_tokens", "max_tokens", 1, Integer.MAX_VALUE);
        return current.isPresent() ? current : legacy;
    }

    private static List<String> stop(ObjectNode b) {
        Optional<JsonNode> v = opt(b, "stop");
        if (v.isEmpty()) {
            return List.of();
        }
        if (v.get().isTextual()) {
            return List.of(v.get().textValue());
        }
        if (!v.get().isArray()) {
            throw wrongType("stop", "a string or an array of at most 4 strings", v.get());
        }
        ArrayNode a = (ArrayNode) v.get();
        if (a.size() > MAX_STOP) {
            throw invalid("stop", "`stop` takes at most " + MAX_STOP + " sequences, got " + a.size() + ".");
        }
        List<String> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            out.add(requireText(a.get(i), index("stop", i)));
        }
        return out;
    }

    private static ResponseFormat responseFormat(ObjectNode rf) {
        String type = optString(rf, "type", "response_format.type")
                .orElseThrow(() -> invalid("response_format.type", "`response_format.type` is required."));
        return switch (type) {
            case "text" -> ResponseFormat.TEXT;
            case "json_object" -> ResponseFormat.JSON_OBJECT;
            case "json_schema" -> {
                String p = "response_format.json_schema";
                ObjectNode js = optObject(rf, "json_schema", p)
                        .orElseThrow(() -> invalid(p, "`" + p + "` is required when type is json_schema."));
                // OpenAI treats a missing schema as "any JSON"; the empty schema says the same.
                JsonNode schema = optObject(js, "schema", p + ".schema").<JsonNode>map(o -> o)
                        .orElseGet(dev.switchboard.wire.Json::object);
                yield new ResponseFormat.JsonSchema(requireNonEmptyString(js, "name", p + ".name"),
                        optString(js, "description", p + ".description"), schema,
                        optBoolean(js, "strict", p + ".strict").orElse(false));
            }
            default -> throw invalid("response_format.type", "`response_format.type` must be text, json_object or "
                    + "json_schema; got \"" + type + "\".");
        };
    }

    private static Map<String, String> metadata(ObjectNode b) {
        Optional<ObjectNode> m = optObject(b, "metadata", "metadata");
        if (m.isEmpty()) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        m.get().properties().forEach(e -> out.put(e.getKey(),
                requireText(e.getValue(), "metadata." + e.getKey())));
        return out;
    }

    private static Passthrough passthrough(ObjectNode b) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        b.properties().forEach(e -> {
            if (!MODELLED.contains(e.getKey()) && !e.getValue().isNull()) {
                fields.put(e.getKey(), e.getValue());
            }
        });
        optInt(b, "n", "n", 1, Integer.MAX_VALUE).ifPresent(n -> {
            if (n != 1) {
                throw invalid("n", "Only one choice per request is supported: `n` must be 1, got " + n + ".");
            }
        });
        return fields.isEmpty() ? Passthrough.NONE : new Passthrough(OpenAi.FORMAT, fields);
    }
}
