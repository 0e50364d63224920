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
 * {@code POST /v1/chat/completions}: reasoning asked with {@code reasoning_effort} and read from
 * {@code message.reasoning_content} (or {@code reasoning}) and {@code delta.reasoning_content}; a stream
 * asks for {@code stream_options.include_usage} and must end with {@code [DONE]}.
 */
final class ChatCompletionsDriver extends ClientDriver {

    ChatCompletionsDriver() {
        super("/v1/chat/completions", key -> Map.of("authorization", "Bearer " + key));
    }

    @Override
    Optional<ObjectNode> body(String model, Feature feature, boolean streamed) {
        ObjectNode body = Fixtures.object().put("model", model);
        ObjectNode message = body.putArray("messages").addObject().put("role", "user");
        switch (feature) {
            case TEXT -> message.put("content", Fixtures.PROMPT);
            case TOOLS -> {
                message.put("content", Fixtures.PROMPT);
                ObjectNode function = body.putArray("tools").addObject().put("type", "function").putObject("function");
                function.put("name", Fixtures.TOOL_NAME).put("description", Fixtures.TOOL_DESCRIPTION)
                        .set("parameters", Fixtures.TOOL_PARAMETERS.deepCopy());
            }
            case REASONING -> {
                message.put("content", Fixtures.PROMPT);
                body.put("reasoning_effort", "medium");
            }
            case IMAGE -> {
                ArrayNode parts = message.putArray("content");
                parts.addObject().put("type", "text").put("text", Fixtures.PROMPT);
                parts.addObject().put("type", "image_url").putObject("image_url").put("url", Fixtures.PNG_DATA_URL);
            }
            case JSON -> {
                message.put("content", Fixtures.PROMPT);
                body.putObject("response_format").put("type", "json_object");
            }
            case SCHEMA -> {
                message.put("content", Fixtures.PROMPT);
                ObjectNode schema = body.putObject("response_format").put("type", "json_schema").putObject("json_schema");
                schema.put("name", "weather").put("strict", true).set("schema", Fixtures.SCHEMA.deepCopy());
            }
        }
        if (streamed) {
            body.put("stream", true).putObject("stream_options").put("include_usage", true);
        }
        return Optional.of(body);
    }

    @Override
    Result readWhole(int status, JsonNode root, String body) {
        List<String> problems = new ArrayList<>();
        JsonNode choice = root.path("choices").path(0);
        if (choice.isMissingNode()) {
            problems.add("no choices[0]");
        }
        JsonNode message = choice.path("message");
        List<Result.ToolCall> calls = new ArrayList<>();
        for (JsonNode call : message.path("tool_calls")) {
            calls.add(new Result.ToolCall(call.path("function").path("name").asText(""),
                    Fixtures.arguments(call.path("function").path("arguments"))));
        }
        String reasoning = message.path("reasoning_content").asText(message.path("reasoning").asText(""));
        return new Result(status, message.path("content").asText(""), calls, reasoning,
                finish(choice.path("finish_reason")), root.path("usage").path("prompt_tokens").isNumber(), problems, body);
    }

    @Override
    Result readStream(int status, String body) {
        List<String> problems = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        Map<Integer, String[]> calls = new TreeMap<>(); // index -> {name, arguments}
        JsonNode finish = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        boolean usage = false;
        boolean done = false;
        for (Fixtures.SseFrame frame : Fixtures.sse(body)) {
            if (done) {
                problems.add("data after [DONE]");
                break;
            }
            if (frame.data().equals("[DONE]")) {
                done = true;
                continue;
            }
            Optional<JsonNode> parsed = Fixtures.parse(frame.data());
            if (parsed.isEmpty()) {
                problems.add("unparseable chunk: " + Fixtures.excerpt(frame.data(), 80));
                continue;
            }
            JsonNode chunk = parsed.get();
            if (chunk.has("error")) {
                problems.add("error chunk: " + Fixtures.excerpt(frame.data(), 200));
            }
            usage |= chunk.path("usage").path("prompt_tokens").isNumber();
            for (JsonNode choice : chunk.path("choices")) {
                JsonNode delta = choice.path("delta");
                text.append(delta.path("content").asText(""));
                reasoning.append(delta.path("reasoning_content").asText(""));
                for (JsonNode call : delta.path("tool_calls")) {
                    String[] acc = calls.computeIfAbsent(call.path("index").asInt(), i -> new String[] {"", ""});
                    acc[0] += call.path("function").path("name").asText("");
                    acc[1] += call.path("function").path("arguments").asText("");
                }
                if (choice.path("finish_reason").isTextual()) {
                    finish = choice.path("finish_reason");
                }
            }
        }
        if (!done) {
            problems.add("stream ended without data: [DONE]");
        }
        List<Result.ToolCall> toolCalls = calls.values().stream()
                .map(c -> new Result.ToolCall(c[0], Fixtures.arguments(Fixtures.JSON.getNodeFactory().textNode(c[1]))))
                .toList();
        return new Result(status, text.toString(), toolCalls, reasoning.toString(), finish(finish), usage, problems, body);
    }

    private static Result.Finish finish(JsonNode reason) {
        return switch (reason.asText("")) {
            case "stop" -> Result.Finish.STOP;
            case "tool_calls" -> Result.Finish.TOOL_CALLS;
            case "length" -> Result.Finish.LENGTH;
            case "" -> Result.Finish.MISSING;
            default -> Result.Finish.OTHER;
        };
    }
}
