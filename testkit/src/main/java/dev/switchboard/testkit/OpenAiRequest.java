package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An OpenAI chat-completions request body read into a {@link Prompt} plus the streaming switches.
 * Validation is only as strict as a test needs: a missing model or message list is a 400 naming the field.
 *
 * @param prompt       the dialect-neutral facts
 * @param stream       {@code stream: true}
 * @param includeUsage {@code stream_options.include_usage: true}
 */
record OpenAiRequest(Prompt prompt, boolean stream, boolean includeUsage) {

    /** A request the fake refuses with 400, naming the offending field. */
    static final class Invalid extends Exception {
        private final Optional<String> param;

        Invalid(Optional<String> param, String message) {
            super(message);
            this.param = param;
        }

        Optional<String> param() {
            return param;
        }
    }

    static OpenAiRequest parse(JsonNode body) throws Invalid {
        if (!body.isObject()) {
            throw new Invalid(Optional.empty(), "We could not parse the JSON body of your request. Expected a JSON object.");
        }
        if (!body.path("model").isTextual() || body.path("model").asText().isEmpty()) {
            throw new Invalid(Optional.of("model"), "You must provide a model parameter.");
        }
        JsonNode messages = body.path("messages");
        if (!messages.isArray() || messages.isEmpty()) {
            throw new Invalid(Optional.of("messages"), "'messages' must be a non-empty array.");
        }
        String lastUser = "";
        int chars = 0;
        for (JsonNode message : messages) {
            String text = contentText(message.path("content"));
            chars += text.length();
            if (message.path("role").asText().equals("user")) {
                lastUser = text;
            }
        }
        JsonNode last = messages.get(messages.size() - 1);
        Optional<String> toolResult = last.path("role").asText().equals("tool")
                ? Optional.of(contentText(last.path("content")))
                : Optional.empty();

        JsonNode toolChoice = body.path("tool_choice");
        boolean toolsOff = toolChoice.isTextual() && toolChoice.asText().equals("none");
        List<Prompt.ToolSpec> tools = toolsOff ? List.of() : tools(body.path("tools"));
        Optional<String> forced = toolChoice.path("function").path("name").isTextual()
                ? Optional.of(toolChoice.path("function").path("name").asText())
                : Optional.empty();

        JsonNode effort = body.path("reasoning_effort");
        Prompt prompt = new Prompt(
                body.path("model").asText(),
                lastUser,
                toolResult,
                tools,
                forced,
                maxTokens(body),
                stops(body.path("stop")),
                chars,
                effort.isTextual() && !effort.asText().equals("none"));
        return new OpenAiRequest(prompt,
                body.path("stream").asBoolean(false),
                body.path("stream_options").path("include_usage").asBoolean(false));
    }

    /** A string content, or the text parts of a part list joined by spaces; other parts carry no text. */
    private static String contentText(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode part : content) {
            if (part.path("text").isTextual()) {
                texts.add(part.path("text").asText());
            }
        }
        return String.join(" ", texts);
    }

    private static List<Prompt.ToolSpec> tools(JsonNode tools) {
        List<Prompt.ToolSpec> specs = new ArrayList<>();
        for (JsonNode tool : tools) {
            JsonNode function = tool.path("function");
            if (function.path("name").isTextual()) {
                JsonNode parameters = function.path("parameters");
                specs.add(new Prompt.ToolSpec(function.path("name").asText(),
                        parameters.isObject() ? parameters : TestkitJson.object()));
            }
        }
        return specs;
    }

    // max_completion_tokens supersedes the deprecated max_tokens when both are sent.
    private static Optional<Integer> maxTokens(JsonNode body) {
        for (String field : new String[] {"max_completion_tokens", "max_tokens"}) {
            if (body.path(field).isIntegralNumber()) {
                return Optional.of(body.path(field).asInt());
            }
        }
        return Optional.empty();
    }

    private static List<String> stops(JsonNode stop) {
        if (stop.isTextual()) {
            return List.of(stop.asText());
        }
        List<String> stops = new ArrayList<>();
        for (JsonNode s : stop) {
            if (s.isTextual()) {
                stops.add(s.asText());
            }
        }
        return stops;
    }
}
