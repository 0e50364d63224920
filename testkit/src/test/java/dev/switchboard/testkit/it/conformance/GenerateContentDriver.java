package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /v1beta/models/{model}:generateContent} and {@code :streamGenerateContent?alt=sse} (Google's
 * content-parts format): reasoning asked with {@code thinkingConfig.includeThoughts} and read from
 * {@code thought: true} parts; JSON mode is {@code responseMimeType: application/json}, with
 * {@code responseJsonSchema} for a schema. Gemini has no finish reason of its own for function calls
 * ({@code STOP}).
 */
final class GenerateContentDriver extends ClientDriver {

    GenerateContentDriver() {
        super("/v1beta/models/", key -> Map.of("x-goog-api-key", key));
    }

    @Override
    Optional<ObjectNode> body(String model, Feature feature, boolean streamed) {
        ObjectNode body = Fixtures.object();
        ArrayNode parts = body.putArray("contents").addObject().put("role", "user").putArray("parts");
        parts.addObject().put("text", Fixtures.PROMPT);
        switch (feature) {
            case TEXT -> { }
            case TOOLS -> body.putArray("tools").addObject().putArray("functionDeclarations").addObject()
                    .put("name", Fixtures.TOOL_NAME).put("description", Fixtures.TOOL_DESCRIPTION)
                    .set("parametersJsonSchema", Fixtures.TOOL_PARAMETERS.deepCopy());
            case REASONING -> body.putObject("generationConfig").putObject("thinkingConfig")
                    .put("includeThoughts", true).put("thinkingBudget", 1024);
            case IMAGE -> parts.addObject().putObject("inlineData").put("mimeType", Fixtures.PNG_TYPE)
                    .put("data", Fixtures.PNG_BASE64);
            case JSON -> body.putObject("generationConfig").put("responseMimeType", "application/json");
            case SCHEMA -> body.putObject("generationConfig").put("responseMimeType", "application/json")
                    .set("responseJsonSchema", Fixtures.SCHEMA.deepCopy());
        }
        return Optional.of(body);
    }

    @Override
    String path(String model, boolean streamed) {
        return super.path(model, streamed) + model + (streamed ? ":streamGenerateContent?alt=sse" : ":generateContent");
    }

    @Override
    boolean hasToolFinish() {
        return false;
    }

    @Override
    Result readWhole(int status, JsonNode root, String body) {
        return read(status, List.of(root), new ArrayList<>(), body);
    }

    @Override
    Result readStream(int status, String body) {
        List<String> problems = new ArrayList<>();
        List<JsonNode> responses = new ArrayList<>();
        for (Fixtures.SseFrame frame : Fixtures.sse(body)) {
            Fixtures.parse(frame.data()).ifPresentOrElse(responses::add,
                    () -> problems.add("unparseable chunk: " + Fixtures.excerpt(frame.data(), 80)));
        }
        if (responses.isEmpty()) {
            problems.add("no chunks");
        }
        return read(status, responses, problems, body);
    }

    /** Text, calls, thoughts, finish and usage from the response objects of one answer (one, or a stream's chunks). */
    private static Result read(int status, List<JsonNode> responses, List<String> problems, String body) {
        StringBuilder text = new StringBuilder();
        StringBuilder thoughts = new StringBuilder();
        List<Result.ToolCall> calls = new ArrayList<>();
        JsonNode finish = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        boolean usage = false;
        for (JsonNode response : responses) {
            if (response.has("error")) {
                problems.add("error element: " + Fixtures.excerpt(Fixtures.write(response), 200));
            }
            JsonNode candidate = response.path("candidates").path(0);
            for (JsonNode part : candidate.path("content").path("parts")) {
                if (part.path("thought").asBoolean(false)) {
                    thoughts.append(part.path("text").asText(""));
                } else if (part.path("text").isTextual()) {
                    text.append(part.path("text").asText());
                }
                if (part.path("functionCall").isObject()) {
                    JsonNode call = part.path("functionCall");
                    calls.add(new Result.ToolCall(call.path("name").asText(), call.path("args")));
                }
            }
            if (candidate.path("finishReason").isTextual()) {
                finish = candidate.path("finishReason");
            }
            usage |= response.path("usageMetadata").path("promptTokenCount").isNumber()
                    && response.path("usageMetadata").path("totalTokenCount").isNumber();
        }
        Result.Finish normal = switch (finish.asText("")) {
            case "STOP" -> Result.Finish.STOP;
            case "MAX_TOKENS" -> Result.Finish.LENGTH;
            case "" -> Result.Finish.MISSING;
            default -> Result.Finish.OTHER;
        };
        return new Result(status, text.toString(), calls, thoughts.toString(), normal, usage, problems, body);
    }
}
