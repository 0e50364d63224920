package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.RawExchange;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.SseStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Anthropic messages upstream ({@code POST /v1/messages}), as Anthropic's API reference has it. */
final class AnthropicUpstream implements UpstreamFormat {
    private static final Set<String> TOP_LEVEL = Set.of("model", "messages", "max_tokens", "system", "metadata",
            "stop_sequences", "stream", "temperature", "top_p", "top_k", "tools", "tool_choice", "thinking",
            "service_tier", "container", "mcp_servers", "context_management", "output_config", "output_format");
    private static final Set<String> IMAGE_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    private static final Pattern TOOL_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,128}$");
    private static final Pattern TOOL_ID = Pattern.compile("^[a-zA-Z0-9_-]+$");

    @Override
    public List<String> problems(RecordedRequest r, String apiKey) {
        Problems p = new Problems();
        p.require(r.method().equals("POST") && r.path().equals("/v1/messages"), "request line",
                r.method() + " " + r.path() + " is not POST /v1/messages");
        p.require(r.header("x-api-key").orElse("").equals(apiKey), "x-api-key", "not the provider's key");
        p.require(r.header("anthropic-version").filter(v -> !v.isBlank()).isPresent(), "anthropic-version", "missing");
        p.require(r.header("content-type").orElse("").startsWith("application/json"), "content-type",
                "not application/json");
        JsonNode b = r.json();
        if (!b.isObject()) {
            p.add("body", "not a JSON object");
            return p.list;
        }
        p.onlyKnownKeys(b, TOP_LEVEL, "");
        p.require(b.path("model").isTextual() && !b.path("model").asText().isEmpty(), "model", "missing");
        JsonNode max = b.path("max_tokens");
        p.require(max.isIntegralNumber() && max.asLong() > 0, "max_tokens", "must be a positive integer");
        JsonNode messages = b.path("messages");
        p.require(messages.isArray() && !messages.isEmpty(), "messages", "must be a non-empty array");
        p.require(messages.path(0).path("role").asText().equals("user"), "messages[0].role", "must be user");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            String at = "messages[" + i + "]";
            p.require(Set.of("user", "assistant").contains(m.path("role").asText()), at + ".role",
                    "must be user or assistant");
            JsonNode content = m.path("content");
            if (content.isTextual()) {
                p.require(!content.asText().isEmpty(), at + ".content", "must not be empty");
                continue;
            }
            p.require(content.isArray() && !content.isEmpty(), at + ".content", "must be a string or a non-empty array");
            for (int j = 0; j < content.size(); j++) {
                block(content.get(j), at + ".content[" + j + "]", p);
            }
        }
        JsonNode system = b.path("system");
        if (system.isArray()) {
            for (int i = 0; i < system.size(); i++) {
                p.require(system.get(i).path("type").asText().equals("text"), "system[" + i + "].type", "must be text");
            }
        } else {
            p.require(system.isMissingNode() || system.isTextual(), "system", "must be a string or text blocks");
        }
        for (int i = 0; i < b.path("tools").size(); i++) {
            JsonNode tool = b.path("tools").get(i);
            if (tool.has("type") && !tool.path("type").asText().equals("custom")) {
                continue; // a server tool
            }
            p.matches(tool.path("name"), TOOL_NAME, "tools[" + i + "].name");
            p.require(tool.path("input_schema").path("type").asText().equals("object"), "tools[" + i + "].input_schema",
                    "must be an object schema");
        }
        JsonNode thinking = b.path("thinking");
        if (!thinking.isMissingNode()) {
            String type = thinking.path("type").asText();
            p.require(Set.of("enabled", "disabled", "adaptive").contains(type), "thinking.type",
                    "must be enabled, disabled or adaptive");
            if (type.equals("enabled")) {
                int budget = thinking.path("budget_tokens").asInt(0);
                p.require(budget >= 1024, "thinking.budget_tokens", "must be at least 1024");
                p.require(budget < max.asInt(0), "thinking.budget_tokens", "must be below max_tokens");
            }
        }
        JsonNode temperature = b.path("temperature");
        p.require(temperature.isMissingNode() || temperature.isNumber() && temperature.asDouble() >= 0
                && temperature.asDouble() <= 1, "temperature", "must be 0..1");
        JsonNode format = b.path("output_config").path("format");
        if (!format.isMissingNode()) {
            p.require(format.path("type").asText().equals("json_schema"), "output_config.format.type",
                    "must be json_schema");
            p.require(format.path("schema").isObject(), "output_config.format.schema", "must be an object");
        }
        JsonNode stream = b.path("stream");
        p.require(stream.isMissingNode() || stream.isBoolean(), "stream", "must be a boolean");
        return p.list;
    }

    private static void block(JsonNode block, String at, Problems p) {
        switch (block.path("type").asText()) {
            case "text" -> p.require(!block.path("text").asText("").isEmpty(), at + ".text", "must be non-empty");
            case "image" -> {
                JsonNode source = block.path("source");
                switch (source.path("type").asText()) {
                    case "base64" -> {
                        p.require(IMAGE_TYPES.contains(source.path("media_type").asText()), at + ".source.media_type",
                                "must be one of " + IMAGE_TYPES);
                        p.require(!source.path("data").asText("").isEmpty(), at + ".source.data", "missing");
                    }
                    case "url" -> p.require(source.path("url").isTextual(), at + ".source.url", "missing");
                    default -> p.add(at + ".source.type", "must be base64 or url");
                }
            }
            case "tool_use" -> {
                p.matches(block.path("id"), TOOL_ID, at + ".id");
                p.require(block.path("input").isObject(), at + ".input", "must be an object");
            }
            case "tool_result" -> p.matches(block.path("tool_use_id"), TOOL_ID, at + ".tool_use_id");
            case "thinking" -> p.require(block.path("signature").isTextual(), at + ".signature", "missing");
            case "redacted_thinking", "document", "search_result" -> { }
            default -> p.add(at + ".type", "unknown block type " + block.path("type"));
        }
    }

    @Override
    public List<String> toolNames(RecordedRequest r) {
        return UpstreamFormat.toolNamesAt(r, "/name");
    }

    @Override
    public Optional<String> reasoning(RecordedRequest r) {
        String type = r.json().path("thinking").path("type").asText("");
        boolean shown = !r.json().path("thinking").path("display").asText("").equals("omitted");
        return (type.equals("enabled") || type.equals("adaptive")) && shown
                ? Optional.of("thinking.type: " + type)
                : Optional.empty();
    }

    @Override
    public List<String> pngData(RecordedRequest r) {
        List<String> data = new ArrayList<>();
        for (JsonNode message : r.json().path("messages")) {
            for (JsonNode block : message.path("content")) {
                JsonNode source = block.path("source");
                if (block.path("type").asText().equals("image") && source.path("type").asText().equals("base64")
                        && source.path("media_type").asText().equals(Fixtures.PNG_TYPE)) {
                    data.add(source.path("data").asText());
                }
            }
        }
        return data;
    }

    @Override
    public Optional<String> jsonMode(RecordedRequest r) {
        return schema(r).map(s -> "output_config.format.type: json_schema");
    }

    @Override
    public Optional<JsonNode> schema(RecordedRequest r) {
        JsonNode format = r.json().path("output_config").path("format");
        return format.path("type").asText().equals("json_schema") && format.path("schema").isObject()
                ? Optional.of(format.path("schema"))
                : Optional.empty();
    }

    @Override
    public void answer(RecordedRequest r, RawExchange exchange, String text) throws IOException {
        String model = r.json().path("model").asText();
        Map<String, String> headers = Map.of("request-id", "req_matrix");
        ObjectNode message = Fixtures.object().put("id", "msg_matrix").put("type", "message").put("role", "assistant")
                .put("model", model);
        if (!streamed(r)) {
            message.putArray("content").addObject().put("type", "text").put("text", text);
            message.put("stop_reason", "end_turn").putNull("stop_sequence");
            message.putObject("usage").put("input_tokens", 12).put("output_tokens", 9);
            exchange.respondJson(200, headers, message);
            return;
        }
        SseStream sse = exchange.openSse(200, headers);
        message.putArray("content");
        message.putNull("stop_reason").putNull("stop_sequence");
        message.putObject("usage").put("input_tokens", 12).put("output_tokens", 1);
        ObjectNode start = Fixtures.object().put("type", "message_start");
        start.set("message", message);
        event(sse, start);
        ObjectNode blockStart = Fixtures.object().put("type", "content_block_start").put("index", 0);
        blockStart.putObject("content_block").put("type", "text").put("text", "");
        event(sse, blockStart);
        for (String piece : UpstreamFormat.pieces(text)) {
            ObjectNode delta = Fixtures.object().put("type", "content_block_delta").put("index", 0);
            delta.putObject("delta").put("type", "text_delta").put("text", piece);
            event(sse, delta);
        }
        event(sse, Fixtures.object().put("type", "content_block_stop").put("index", 0));
        ObjectNode messageDelta = Fixtures.object().put("type", "message_delta");
        messageDelta.putObject("delta").put("stop_reason", "end_turn").putNull("stop_sequence");
        messageDelta.putObject("usage").put("output_tokens", 9);
        event(sse, messageDelta);
        event(sse, Fixtures.object().put("type", "message_stop"));
        sse.end();
    }

    private static void event(SseStream sse, ObjectNode data) throws IOException {
        sse.event(data.path("type").asText(), Fixtures.write(data));
    }
}
