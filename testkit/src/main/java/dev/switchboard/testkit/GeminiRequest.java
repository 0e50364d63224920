package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A Gemini {@code generateContent} body read into a {@link Prompt}, validated only as far as a test
 * needs, with Google's messages where Google's behaviour is the point:
 *
 * <ul>
 *   <li>{@code contents} missing or empty: 400;</li>
 *   <li>a {@code functionResponse} without a name: 400 {@code ...function_response.name: Name cannot be
 *       empty.};</li>
 *   <li>with {@code strictSignatures} (model suffix {@code -strictsig}, Gemini 3 behaviour): a model turn
 *       whose first {@code functionCall} part has no {@code thoughtSignature} is a 400
 *       {@code Function call is missing a thought_signature...}; a signature the fake never issued (and
 *       that is not one of Google's documented skip values) is a 400 {@code Corrupted thought signature.}</li>
 * </ul>
 *
 * Tool parameters may be {@code parametersJsonSchema} or Google's OpenAPI-style {@code parameters}
 * (upper-case type names are lowered for the {@link ArgumentFiller}).
 *
 * @param prompt the dialect-neutral facts ({@code reasoningRequested} means {@code includeThoughts: true})
 */
record GeminiRequest(Prompt prompt) {

    /** Google's documented values for history that never had a signature. */
    static final List<String> SKIP_SIGNATURES = List.of("skip_thought_signature_validator",
            "context_engineering_is_the_way_to_go");
    private static final String SIGNATURE_PREFIX = "fake-thought-signature/";

    /** A request the fake refuses with 400 INVALID_ARGUMENT. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    /** The deterministic signature the fake puts on the first call of an answer that thought. */
    static String signatureFor(long callSequence) {
        return Base64.getEncoder().encodeToString((SIGNATURE_PREFIX + callSequence).getBytes(StandardCharsets.UTF_8));
    }

    static GeminiRequest parse(String model, JsonNode body, boolean strictSignatures) throws Invalid {
        if (!body.isObject()) {
            throw new Invalid("Invalid JSON payload received. Expected an object.");
        }
        JsonNode contents = field(body, "contents");
        if (!contents.isArray() || contents.isEmpty()) {
            throw new Invalid("* GenerateContentRequest.contents: contents is not specified");
        }
        String lastUser = "";
        int chars = 0;
        for (JsonNode text : field(field(body, "systemInstruction"), "parts")) {
            chars += field(text, "text").asText("").length();
        }
        for (int i = 0; i < contents.size(); i++) {
            JsonNode content = contents.get(i);
            boolean fromModel = field(content, "role").asText("user").equals("model");
            List<String> texts = new ArrayList<>();
            JsonNode parts = field(content, "parts");
            for (int j = 0; j < parts.size(); j++) {
                JsonNode part = parts.get(j);
                if (field(part, "text").isTextual() && !field(part, "thought").asBoolean(false)) {
                    texts.add(field(part, "text").asText());
                }
                JsonNode response = field(part, "functionResponse");
                if (response.isObject()) {
                    if (field(response, "name").asText("").isEmpty()) {
                        throw new Invalid("* GenerateContentRequest.contents[" + i + "].parts[" + j
                                + "].function_response.name: Name cannot be empty.");
                    }
                    chars += TestkitJson.text(field(response, "response")).length();
                }
            }
            String joined = String.join(" ", texts);
            chars += joined.length();
            if (!fromModel && !texts.isEmpty()) {
                lastUser = joined;
            }
            if (fromModel && strictSignatures) {
                checkSignatures(parts, i);
            }
        }
        JsonNode last = contents.get(contents.size() - 1);
        List<String> results = new ArrayList<>();
        for (JsonNode part : field(last, "parts")) {
            JsonNode response = field(part, "functionResponse");
            if (response.isObject()) {
                JsonNode r = field(response, "response");
                results.add(r.path("output").isTextual() ? r.path("output").asText() : TestkitJson.text(r));
            }
        }
        Optional<String> toolResult = results.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", results));

        JsonNode calling = field(field(body, "toolConfig"), "functionCallingConfig");
        String mode = field(calling, "mode").asText("AUTO").toUpperCase(Locale.ROOT);
        List<Prompt.ToolSpec> tools = mode.equals("NONE") ? List.of() : tools(field(body, "tools"));
        JsonNode allowed = field(calling, "allowedFunctionNames");
        Optional<String> forced = mode.equals("ANY") && allowed.path(0).isTextual()
                ? Optional.of(allowed.path(0).asText())
                : Optional.empty();

        JsonNode generation = field(body, "generationConfig");
        JsonNode max = field(generation, "maxOutputTokens");
        List<String> stop = new ArrayList<>();
        for (JsonNode s : field(generation, "stopSequences")) {
            stop.add(s.asText());
        }
        boolean thoughts = field(field(generation, "thinkingConfig"), "includeThoughts").asBoolean(false);
        return new GeminiRequest(new Prompt(model, lastUser, toolResult, tools, forced,
                max.isNumber() ? Optional.of(max.asInt()) : Optional.empty(), stop, chars, thoughts));
    }

    private static void checkSignatures(JsonNode parts, int turn) throws Invalid {
        for (int j = 0; j < parts.size(); j++) {
            JsonNode call = field(parts.get(j), "functionCall");
            if (!call.isObject()) {
                continue;
            }
            JsonNode signature = field(parts.get(j), "thoughtSignature");
            if (!signature.isTextual() || signature.asText().isEmpty()) {
                throw new Invalid("Function call is missing a thought_signature in functionCall parts. This is required "
                        + "for tools to work correctly, and missing thought_signature may lead to degraded model "
                        + "performance. Additional data, function call `default_api:" + field(call, "name").asText()
                        + "` , position " + (turn + 1) + ". Please refer to "
                        + "https://ai.google.dev/gemini-api/docs/thought-signatures for more details.");
            }
            if (!issued(signature.asText()) && !SKIP_SIGNATURES.contains(signature.asText())) {
                throw new Invalid("Corrupted thought signature.");
            }
            return; // with parallel calls only the first carries a signature
        }
    }

    private static boolean issued(String signature) {
        try {
            return new String(Base64.getDecoder().decode(signature), StandardCharsets.UTF_8).startsWith(SIGNATURE_PREFIX);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static List<Prompt.ToolSpec> tools(JsonNode tools) {
        List<Prompt.ToolSpec> specs = new ArrayList<>();
        for (JsonNode tool : tools) {
            for (JsonNode function : field(tool, "functionDeclarations")) {
                if (field(function, "name").isTextual()) {
                    JsonNode schema = field(function, "parametersJsonSchema");
                    if (!schema.isObject()) {
                        schema = lowerTypes(field(function, "parameters"));
                    }
                    specs.add(new Prompt.ToolSpec(field(function, "name").asText(),
                            schema.isObject() ? schema : TestkitJson.object()));
                }
            }
        }
        return specs;
    }

    /** A copy of an OpenAPI-style schema with {@code type: STRING} written {@code type: string}. */
    private static JsonNode lowerTypes(JsonNode schema) {
        if (schema.isArray()) {
            ArrayNode copy = TestkitJson.array();
            schema.forEach(item -> copy.add(lowerTypes(item)));
            return copy;
        }
        if (!schema.isObject()) {
            return schema;
        }
        ObjectNode copy = TestkitJson.object();
        for (Map.Entry<String, JsonNode> e : schema.properties()) {
            copy.set(e.getKey(), e.getKey().equals("type") && e.getValue().isTextual()
                    ? TextNode.valueOf(e.getValue().asText().toLowerCase(Locale.ROOT))
                    : lowerTypes(e.getValue()));
        }
        return copy;
    }

    /** A field in camelCase or snake_case (Google accepts both); a missing node when absent. */
    static JsonNode field(JsonNode node, String camel) {
        JsonNode v = node.path(camel);
        if (!v.isMissingNode()) {
            return v;
        }
        StringBuilder snake = new StringBuilder();
        for (char c : camel.toCharArray()) {
            snake.append(Character.isUpperCase(c) ? "_" + Character.toLowerCase(c) : String.valueOf(c));
        }
        return node.path(snake.toString());
    }
}
