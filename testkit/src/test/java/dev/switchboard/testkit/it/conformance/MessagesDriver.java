package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code POST /v1/messages} (Anthropic's format): reasoning asked with {@code thinking: enabled} and read
 * from {@code thinking} blocks; JSON output only as {@code output_config.format} with a schema (the format
 * has no schema-less JSON mode, so {@link Feature#JSON} cannot be asked). A stream is named events and must
 * end with {@code message_stop}.
 */
final class MessagesDriver extends ClientDriver {
    static final int MAX_TOKENS = 2048;
    static final int THINKING_BUDGET = 1024;

    MessagesDriver() {
        super("/v1/messages", key -> Map.of("x-api-key", key, "anthropic-version", "2023-06-01"));
    }

    @Override
    Optional<ObjectNode> body(String model, Feature feature, boolean streamed) {
        if (feature == Feature.JSON) {
            return Optional.empty();
        }
        ObjectNode body = Fixtures.object().put("model", model).put("max_tokens", MAX_TOKENS);
        ObjectNode message = body.putArray("messages").addObject().put("role", "user");
        switch (feature) {
            case TEXT -> message.put("content", Fixtures.PROMPT);
            case TOOLS -> {
                message.put("content", Fixtures.PROMPT);
                body.putArray("tools").addObject().put("name", Fixtures.TOOL_NAME)
                        .put("description", Fixtures.TOOL_DESCRIPTION)
                        .set("input_schema", Fixtures.TOOL_PARAMETERS.deepCopy());
            }
            case REASONING -> {
                message.put("content", Fixtures.PROMPT);
                body.putObject("thinking").put("type", "enabled").put("budget_tokens", THINKING_BUDGET);
            }
            case IMAGE -> {
                ArrayNode blocks = message.putArray("content");
                blocks.addObject().put("type", "image").putObject("source").put("type", "base64")
                        .put("media_type", Fixtures.PNG_TYPE).put("data", Fixtures.PNG_BASE64);
                blocks.addObject().put("type", "text").put("text", Fixtures.PROMPT);
            }
            case SCHEMA -> {
                message.put("content", Fixtures.PROMPT);
                body.putObject("output_config").putObject("format").put("type", "json_schema")
                        .set("schema", Fixtures.SCHEMA.deepCopy());
            }
            case JSON -> throw new AssertionError("unreachable");
        }
        if (streamed) {
            body.put("stream", true);
        }
        return Optional.of(body);
    }

    @Override
    Result readWhole(int status, JsonNode root, String body) {
        List<String> problems = new ArrayList<>();
        if (!root.path("type").asText().equals("message")) {
            problems.add("type is not \"message\"");
        }
        StringBuilder text = new StringBuilder();
        StringBuilder thinking = new StringBuilder();
        List<Result.ToolCall> calls = new ArrayList<>();
        for (JsonNode block : root.path("content")) {
            switch (block.path("type").asText()) {
                case "text" -> text.append(block.path("text").asText());
                case "thinking" -> thinking.append(block.path("thinking").asText());
                case "tool_use" -> calls.add(new Result.ToolCall(block.path("name").asText(), block.path("input")));
                default -> { }
            }
        }
        return new Result(status, text.toString(), calls, thinking.toString(), finish(root.path("stop_reason")),
                usage(root.path("usage")), problems, body);
    }

    @Override
    Result readStream(int status, String body) {
        List<String> problems = new ArrayList<>();
        Map<Integer, ObjectNode> blocks = new TreeMap<>();
        Map<Integer, StringBuilder> partial = new TreeMap<>();
        JsonNode stop = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        boolean usage = false;
        boolean stopped = false;
        for (Fixtures.SseFrame frame : Fixtures.sse(body)) {
            Optional<JsonNode> parsed = Fixtures.parse(frame.data());
            if (parsed.isEmpty()) {
                problems.add("unparseable event: " + Fixtures.excerpt(frame.data(), 80));
                continue;
            }
            JsonNode event = parsed.get();
            String type = event.path("type").asText();
            if (!type.equals(frame.event())) {
                problems.add("event name " + frame.event() + " differs from payload type " + type);
            }
            int index = event.path("index").asInt(-1);
            switch (type) {
                case "message_start" -> usage |= usage(event.path("message").path("usage"));
                case "content_block_start" -> blocks.put(index, event.path("content_block").deepCopy());
                case "content_block_delta" -> {
                    ObjectNode block = blocks.get(index);
                    JsonNode delta = event.path("delta");
                    if (block == null) {
                        problems.add("delta for unopened block " + index);
                        continue;
                    }
                    switch (delta.path("type").asText()) {
                        case "text_delta" -> block.put("text", block.path("text").asText("") + delta.path("text").asText());
                        case "thinking_delta" -> block.put("thinking",
                                block.path("thinking").asText("") + delta.path("thinking").asText());
                        case "input_json_delta" -> partial.computeIfAbsent(index, i -> new StringBuilder())
                                .append(delta.path("partial_json").asText());
                        default -> { }
                    }
                }
                case "message_delta" -> {
                    stop = event.path("delta").path("stop_reason");
                    usage |= event.path("usage").path("output_tokens").isNumber();
                }
                case "message_stop" -> stopped = true;
                case "error" -> problems.add("error event: " + Fixtures.excerpt(frame.data(), 200));
                default -> { }
            }
        }
        if (!stopped) {
            problems.add("stream ended without message_stop");
        }
        StringBuilder text = new StringBuilder();
        StringBuilder thinking = new StringBuilder();
        List<Result.ToolCall> calls = new ArrayList<>();
        blocks.forEach((index, block) -> {
            switch (block.path("type").asText()) {
                case "text" -> text.append(block.path("text").asText());
                case "thinking" -> thinking.append(block.path("thinking").asText());
                case "tool_use" -> {
                    StringBuilder json = partial.get(index);
                    JsonNode input = json == null || json.isEmpty() ? block.path("input")
                            : Fixtures.arguments(Fixtures.JSON.getNodeFactory().textNode(json.toString()));
                    calls.add(new Result.ToolCall(block.path("name").asText(), input));
                }
                default -> { }
            }
        });
        return new Result(status, text.toString(), calls, thinking.toString(), finish(stop), usage, problems, body);
    }

    private static boolean usage(JsonNode usage) {
        return usage.path("input_tokens").isNumber() && usage.path("output_tokens").isNumber();
    }

    private static Result.Finish finish(JsonNode reason) {
        return switch (reason.asText("")) {
            case "end_turn", "stop_sequence" -> Result.Finish.STOP;
            case "tool_use" -> Result.Finish.TOOL_CALLS;
            case "max_tokens" -> Result.Finish.LENGTH;
            case "" -> Result.Finish.MISSING;
            default -> Result.Finish.OTHER;
        };
    }
}
