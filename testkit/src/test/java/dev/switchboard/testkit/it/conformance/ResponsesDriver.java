package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /v1/responses} (OpenAI's Responses format), with {@code store: false} (the matrix needs no
 * state): reasoning asked with {@code reasoning.effort} and read from {@code reasoning} items (summary or
 * content text); JSON mode is {@code text.format}. A stream ends with {@code response.completed}, which
 * carries the usage. The format has no finish reason for function calls: a finished answer is
 * {@code completed}.
 */
final class ResponsesDriver extends ClientDriver {

    ResponsesDriver() {
        super("/v1/responses", key -> Map.of("authorization", "Bearer " + key));
    }

    @Override
    Optional<ObjectNode> body(String model, Feature feature, boolean streamed) {
        ObjectNode body = Fixtures.object().put("model", model).put("store", false);
        switch (feature) {
            case TEXT -> body.put("input", Fixtures.PROMPT);
            case TOOLS -> {
                body.put("input", Fixtures.PROMPT);
                body.putArray("tools").addObject().put("type", "function").put("name", Fixtures.TOOL_NAME)
                        .put("description", Fixtures.TOOL_DESCRIPTION).put("strict", false)
                        .set("parameters", Fixtures.TOOL_PARAMETERS.deepCopy());
            }
            case REASONING -> {
                body.put("input", Fixtures.PROMPT);
                body.putObject("reasoning").put("effort", "medium").put("summary", "auto");
            }
            case IMAGE -> {
                ArrayNode content = body.putArray("input").addObject().put("role", "user").putArray("content");
                content.addObject().put("type", "input_text").put("text", Fixtures.PROMPT);
                content.addObject().put("type", "input_image").put("image_url", Fixtures.PNG_DATA_URL);
            }
            case JSON -> {
                body.put("input", Fixtures.PROMPT);
                body.putObject("text").putObject("format").put("type", "json_object");
            }
            case SCHEMA -> {
                body.put("input", Fixtures.PROMPT);
                body.putObject("text").putObject("format").put("type", "json_schema").put("name", "weather")
                        .put("strict", true).set("schema", Fixtures.SCHEMA.deepCopy());
            }
        }
        if (streamed) {
            body.put("stream", true);
        }
        return Optional.of(body);
    }

    @Override
    boolean hasToolFinish() {
        return false;
    }

    @Override
    Result readWhole(int status, JsonNode root, String body) {
        return fromResponse(status, root, new ArrayList<>(), body);
    }

    /** Text, calls and reasoning from the output items of a whole response object. */
    private static Result fromResponse(int status, JsonNode response, List<String> problems, String body) {
        if (!response.path("object").asText().equals("response")) {
            problems.add("object is not \"response\"");
        }
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<Result.ToolCall> calls = new ArrayList<>();
        for (JsonNode item : response.path("output")) {
            switch (item.path("type").asText()) {
                case "message" -> item.path("content").forEach(c -> {
                    if (c.path("type").asText().equals("output_text")) {
                        text.append(c.path("text").asText());
                    }
                });
                case "function_call" -> calls.add(new Result.ToolCall(item.path("name").asText(),
                        Fixtures.arguments(item.path("arguments"))));
                case "reasoning" -> reasoning.append(reasoningText(item));
                default -> { }
            }
        }
        Result.Finish finish = switch (response.path("status").asText("")) {
            case "completed" -> Result.Finish.STOP;
            case "incomplete" -> Result.Finish.LENGTH;
            case "" -> Result.Finish.MISSING;
            default -> Result.Finish.OTHER;
        };
        boolean usage = response.path("usage").path("input_tokens").isNumber()
                && response.path("usage").path("output_tokens").isNumber();
        return new Result(status, text.toString(), calls, reasoning.toString(), finish, usage, problems, body);
    }

    private static String reasoningText(JsonNode item) {
        StringBuilder text = new StringBuilder();
        item.path("summary").forEach(s -> text.append(s.path("text").asText("")));
        item.path("content").forEach(c -> text.append(c.path("text").asText("")));
        return text.toString();
    }

    /**
     * A stream is read twice over: the deltas are concatenated, and the terminal event's response object is
     * read too; the two must agree, or a client accumulating deltas would see another answer.
     */
    @Override
    Result readStream(int status, String body) {
        List<String> problems = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<Result.ToolCall> calls = new ArrayList<>();
        Optional<JsonNode> terminal = Optional.empty();
        for (Fixtures.SseFrame frame : Fixtures.sse(body)) {
            Optional<JsonNode> parsed = Fixtures.parse(frame.data());
            if (parsed.isEmpty()) {
                problems.add("unparseable event: " + Fixtures.excerpt(frame.data(), 80));
                continue;
            }
            JsonNode event = parsed.get();
            String type = event.path("type").asText();
            if (!frame.event().isEmpty() && !type.equals(frame.event())) {
                problems.add("event name " + frame.event() + " differs from payload type " + type);
            }
            switch (type) {
                case "response.output_text.delta" -> text.append(event.path("delta").asText());
                case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" ->
                        reasoning.append(event.path("delta").asText());
                case "response.output_item.done" -> {
                    JsonNode item = event.path("item");
                    if (item.path("type").asText().equals("function_call")) {
                        calls.add(new Result.ToolCall(item.path("name").asText(),
                                Fixtures.arguments(item.path("arguments"))));
                    }
                }
                case "response.completed", "response.incomplete", "response.failed" -> {
                    if (terminal.isPresent()) {
                        problems.add("a second terminal event: " + type);
                    }
                    terminal = Optional.of(event.path("response"));
                }
                case "error" -> problems.add("error event: " + Fixtures.excerpt(frame.data(), 200));
                default -> { }
            }
        }
        if (terminal.isEmpty()) {
            problems.add("stream ended without response.completed");
            return new Result(status, text.toString(), calls, reasoning.toString(), Result.Finish.MISSING, false,
                    problems, body);
        }
        Result whole = fromResponse(status, terminal.get(), problems, body);
        if (!whole.text().equals(text.toString())) {
            problems.add("output_text deltas \"" + Fixtures.excerpt(text.toString(), 60) + "\" differ from the final text \""
                    + Fixtures.excerpt(whole.text(), 60) + "\"");
        }
        if (!whole.toolCalls().equals(calls)) {
            problems.add("function calls of output_item.done " + calls + " differ from the final ones " + whole.toolCalls());
        }
        return new Result(status, text.toString(), calls, reasoning.toString(), whole.finish(), whole.usage(), problems,
                body);
    }
}
