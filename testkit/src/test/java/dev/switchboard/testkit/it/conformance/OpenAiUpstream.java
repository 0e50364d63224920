package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.RawExchange;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.SseStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** OpenAI chat completions upstream ({@code POST /v1/chat/completions}), as OpenAI's API reference has it. */
final class OpenAiUpstream implements UpstreamFormat {
    private static final Set<String> TOP_LEVEL = Set.of("model", "messages", "stream", "stream_options", "tools",
            "tool_choice", "parallel_tool_calls", "response_format", "reasoning_effort", "max_tokens",
            "max_completion_tokens", "temperature", "top_p", "n", "stop", "presence_penalty", "frequency_penalty",
            "logit_bias", "logprobs", "top_logprobs", "seed", "user", "metadata", "store", "service_tier", "modalities",
            "audio", "prediction", "web_search_options", "verbosity", "safety_identifier", "prompt_cache_key",
            "prompt_cache_retention");
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");
    private static final Set<String> EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "xhigh");
    private static final Pattern NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    @Override
    public List<String> problems(RecordedRequest r, String apiKey) {
        Problems p = new Problems();
        p.require(r.method().equals("POST") && r.path().equals("/v1/chat/completions"), "request line",
                r.method() + " " + r.path() + " is not POST /v1/chat/completions");
        p.require(r.header("authorization").orElse("").equals("Bearer " + apiKey), "authorization",
                "not the provider's key as Bearer");
        p.require(r.header("content-type").orElse("").startsWith("application/json"), "content-type",
                "not application/json");
        JsonNode b = r.json();
        if (!b.isObject()) {
            p.add("body", "not a JSON object");
            return p.list;
        }
        p.onlyKnownKeys(b, TOP_LEVEL, "");
        p.require(b.path("model").isTextual() && !b.path("model").asText().isEmpty(), "model", "missing");
        JsonNode messages = b.path("messages");
        p.require(messages.isArray() && !messages.isEmpty(), "messages", "must be a non-empty array");
        for (int i = 0; i < messages.size(); i++) {
            message(messages.get(i), "messages[" + i + "]", p);
        }
        for (int i = 0; i < b.path("tools").size(); i++) {
            JsonNode tool = b.path("tools").get(i);
            String at = "tools[" + i + "]";
            p.require(tool.path("type").asText().equals("function"), at + ".type", "must be function");
            p.matches(tool.path("function").path("name"), NAME, at + ".function.name");
            JsonNode parameters = tool.path("function").path("parameters");
            p.require(parameters.isMissingNode() || parameters.isObject(), at + ".function.parameters", "must be an object");
        }
        p.require(b.path("tools").isMissingNode() || b.path("tools").isArray() && !b.path("tools").isEmpty(), "tools",
                "must be a non-empty array when present");
        JsonNode stream = b.path("stream");
        p.require(stream.isMissingNode() || stream.isBoolean(), "stream", "must be a boolean");
        p.require(!b.has("stream_options") || stream.asBoolean(false), "stream_options",
                "only allowed when stream is true");
        JsonNode format = b.path("response_format");
        if (!format.isMissingNode()) {
            String type = format.path("type").asText();
            p.require(Set.of("text", "json_object", "json_schema").contains(type), "response_format.type",
                    "must be text, json_object or json_schema");
            if (type.equals("json_schema")) {
                p.matches(format.path("json_schema").path("name"), NAME, "response_format.json_schema.name");
                p.require(format.path("json_schema").path("schema").isObject(), "response_format.json_schema.schema",
                        "must be an object");
            }
        }
        JsonNode effort = b.path("reasoning_effort");
        p.require(effort.isMissingNode() || EFFORTS.contains(effort.asText()), "reasoning_effort",
                "must be one of " + EFFORTS);
        for (String max : List.of("max_tokens", "max_completion_tokens")) {
            p.require(!b.has(max) || b.path(max).isIntegralNumber() && b.path(max).asLong() > 0, max,
                    "must be a positive integer");
        }
        return p.list;
    }

    private static void message(JsonNode m, String at, Problems p) {
        String role = m.path("role").asText();
        p.require(ROLES.contains(role), at + ".role", "must be one of " + ROLES);
        JsonNode content = m.path("content");
        if (content.isTextual()) {
            return;
        }
        if (content.isNull() || content.isMissingNode()) {
            p.require(role.equals("assistant") && m.path("tool_calls").isArray(), at + ".content",
                    "may be absent only on an assistant message with tool_calls");
            return;
        }
        p.require(content.isArray() && !content.isEmpty(), at + ".content", "must be a string or a non-empty array");
        for (int j = 0; j < content.size(); j++) {
            JsonNode part = content.get(j);
            String pat = at + ".content[" + j + "]";
            switch (part.path("type").asText()) {
                case "text" -> p.require(part.path("text").isTextual(), pat + ".text", "missing");
                case "image_url" -> p.require(part.path("image_url").path("url").isTextual(), pat + ".image_url.url",
                        "missing");
                case "input_audio", "file", "refusal" -> { }
                default -> p.add(pat + ".type", "unknown part type " + part.path("type"));
            }
        }
    }

    @Override
    public List<String> toolNames(RecordedRequest r) {
        return UpstreamFormat.toolNamesAt(r, "/function/name");
    }

    @Override
    public Optional<String> reasoning(RecordedRequest r) {
        JsonNode effort = r.json().path("reasoning_effort");
        return effort.isTextual() && !effort.asText().equals("none")
                ? Optional.of("reasoning_effort: " + effort.asText())
                : Optional.empty();
    }

    @Override
    public List<String> pngData(RecordedRequest r) {
        return UpstreamFormat.pngDataUrls(r.json().path("messages"), "image_url", "/image_url/url");
    }

    @Override
    public Optional<String> jsonMode(RecordedRequest r) {
        String type = r.json().path("response_format").path("type").asText("");
        return type.startsWith("json_") ? Optional.of("response_format.type: " + type) : Optional.empty();
    }

    @Override
    public Optional<JsonNode> schema(RecordedRequest r) {
        JsonNode format = r.json().path("response_format");
        return format.path("type").asText().equals("json_schema") && format.path("json_schema").path("schema").isObject()
                ? Optional.of(format.path("json_schema").path("schema"))
                : Optional.empty();
    }

    @Override
    public void answer(RecordedRequest r, RawExchange exchange, String text) throws IOException {
        String model = r.json().path("model").asText();
        ObjectNode usage = Fixtures.object().put("prompt_tokens", 12).put("completion_tokens", 9).put("total_tokens", 21);
        if (!streamed(r)) {
            ObjectNode completion = header(model, "chat.completion");
            ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
            choice.putObject("message").put("role", "assistant").put("content", text);
            choice.put("finish_reason", "stop");
            completion.set("usage", usage);
            exchange.respondJson(200, completion);
            return;
        }
        SseStream sse = exchange.openSse(200);
        List<ObjectNode> deltas = new ArrayList<>();
        deltas.add(Fixtures.object().put("role", "assistant").put("content", ""));
        UpstreamFormat.pieces(text).forEach(piece -> deltas.add(Fixtures.object().put("content", piece)));
        for (ObjectNode delta : deltas) {
            sse.data(Fixtures.write(chunk(model, delta, null)));
        }
        sse.data(Fixtures.write(chunk(model, Fixtures.object(), "stop")));
        if (r.json().path("stream_options").path("include_usage").asBoolean(false)) {
            ObjectNode last = header(model, "chat.completion.chunk");
            last.putArray("choices");
            last.set("usage", usage);
            sse.data(Fixtures.write(last));
        }
        sse.data("[DONE]");
        sse.end();
    }

    private static ObjectNode header(String model, String object) {
        return Fixtures.object().put("id", "chatcmpl-matrix").put("object", object).put("created", 1_700_000_000L)
                .put("model", model);
    }

    private static ObjectNode chunk(String model, ObjectNode delta, String finish) {
        ObjectNode chunk = header(model, "chat.completion.chunk");
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        return chunk;
    }
}
