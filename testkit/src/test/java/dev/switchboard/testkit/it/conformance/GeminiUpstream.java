package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini upstream ({@code POST /v1beta/models/{model}:generateContent}, {@code :streamGenerateContent}), as
 * Google's API reference has it. Google takes field names in camelCase or snake_case; both are read.
 */
final class GeminiUpstream implements UpstreamFormat {
    private static final Pattern PATH = Pattern.compile("/v1beta/models/([^/:]+):(generateContent|streamGenerateContent)");
    private static final Set<String> TOP_LEVEL = Set.of("contents", "tools", "toolConfig", "safetySettings",
            "systemInstruction", "generationConfig", "cachedContent", "labels");
    private static final Set<String> GENERATION = Set.of("temperature", "topP", "topK", "candidateCount",
            "maxOutputTokens", "stopSequences", "presencePenalty", "frequencyPenalty", "seed", "responseMimeType",
            "responseSchema", "responseJsonSchema", "responseModalities", "thinkingConfig", "responseLogprobs",
            "logprobs", "mediaResolution", "speechConfig", "imageConfig", "enableEnhancedCivicAnswers");
    private static final Set<String> THINKING = Set.of("includeThoughts", "thinkingBudget", "thinkingLevel");
    private static final List<String> DATA = List.of("text", "inlineData", "fileData", "functionCall",
            "functionResponse", "executableCode", "codeExecutionResult");
    private static final Set<String> PART = Set.of("text", "inlineData", "fileData", "functionCall", "functionResponse",
            "executableCode", "codeExecutionResult", "thought", "thoughtSignature", "videoMetadata", "partMetadata");
    private static final Pattern FUNCTION_NAME = Pattern.compile("^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$");

    @Override
    public List<String> problems(RecordedRequest r, String apiKey) {
        Problems p = new Problems();
        Matcher path = PATH.matcher(r.path());
        p.require(r.method().equals("POST") && path.matches(), "request line",
                r.method() + " " + r.path() + " is not POST /v1beta/models/{model}:generateContent|streamGenerateContent");
        if (path.matches() && path.group(2).equals("streamGenerateContent")) {
            p.require(query(r, "alt").filter("sse"::equals).isPresent(), "alt",
                    "a stream read as server-sent events needs ?alt=sse");
        }
        p.require(r.header("x-goog-api-key").or(() -> query(r, "key")).orElse("").equals(apiKey), "x-goog-api-key",
                "not the provider's key");
        p.require(r.header("content-type").orElse("").startsWith("application/json"), "content-type",
                "not application/json");
        JsonNode b = camel(r.json());
        if (!b.isObject()) {
            p.add("body", "not a JSON object");
            return p.list;
        }
        p.onlyKnownKeys(b, TOP_LEVEL, "");
        JsonNode contents = b.path("contents");
        p.require(contents.isArray() && !contents.isEmpty(), "contents", "must be a non-empty array");
        for (int i = 0; i < contents.size(); i++) {
            JsonNode content = contents.get(i);
            String at = "contents[" + i + "]";
            p.require(!content.has("role") || Set.of("user", "model").contains(content.path("role").asText()),
                    at + ".role", "must be user or model");
            parts(content.path("parts"), at + ".parts", p);
        }
        if (b.has("systemInstruction")) {
            parts(b.path("systemInstruction").path("parts"), "systemInstruction.parts", p);
        }
        for (int i = 0; i < b.path("tools").size(); i++) {
            JsonNode declarations = b.path("tools").get(i).path("functionDeclarations");
            for (int j = 0; j < declarations.size(); j++) {
                JsonNode f = declarations.get(j);
                String at = "tools[" + i + "].functionDeclarations[" + j + "]";
                p.matches(f.path("name"), FUNCTION_NAME, at + ".name");
                p.require(!(f.has("parameters") && f.has("parametersJsonSchema")), at,
                        "parameters and parametersJsonSchema are mutually exclusive");
            }
        }
        JsonNode g = b.path("generationConfig");
        if (!g.isMissingNode()) {
            p.onlyKnownKeys(g, GENERATION, "generationConfig");
            p.require(!(g.has("responseSchema") && g.has("responseJsonSchema")), "generationConfig",
                    "responseSchema and responseJsonSchema are mutually exclusive");
            p.require(!(g.has("responseSchema") || g.has("responseJsonSchema"))
                    || g.path("responseMimeType").asText().equals("application/json"), "generationConfig.responseMimeType",
                    "a response schema needs application/json");
            JsonNode t = g.path("thinkingConfig");
            if (!t.isMissingNode()) {
                p.onlyKnownKeys(t, THINKING, "generationConfig.thinkingConfig");
                p.require(!(t.has("thinkingBudget") && t.has("thinkingLevel")), "generationConfig.thinkingConfig",
                        "thinkingBudget and thinkingLevel are mutually exclusive");
            }
        }
        return p.list;
    }

    private static void parts(JsonNode parts, String at, Problems p) {
        p.require(parts.isArray() && !parts.isEmpty(), at, "must be a non-empty array");
        for (int j = 0; j < parts.size(); j++) {
            JsonNode part = parts.get(j);
            String pat = at + "[" + j + "]";
            p.onlyKnownKeys(part, PART, pat);
            long data = DATA.stream().filter(part::has).count();
            p.require(data == 1, pat, "must hold exactly one data field, holds " + data);
            if (part.has("inlineData")) {
                p.require(part.path("inlineData").path("mimeType").isTextual(), pat + ".inlineData.mimeType", "missing");
                p.require(!part.path("inlineData").path("data").asText("").isEmpty(), pat + ".inlineData.data", "missing");
            }
        }
    }

    /** A copy with snake_case field names in camelCase (Google accepts both). */
    private static JsonNode camel(JsonNode node) {
        if (node.isArray()) {
            ArrayNode copy = Fixtures.JSON.createArrayNode();
            node.forEach(item -> copy.add(camel(item)));
            return copy;
        }
        if (!node.isObject()) {
            return node;
        }
        ObjectNode copy = Fixtures.object();
        node.properties().forEach(e -> {
            // Schemas and call arguments are data, not API fields: copied as they are.
            boolean data = Set.of("args", "response", "parametersJsonSchema", "responseJsonSchema", "parameters",
                    "responseSchema").contains(e.getKey());
            copy.set(camelName(e.getKey()), data ? e.getValue() : camel(e.getValue()));
        });
        return copy;
    }

    private static String camelName(String name) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : name.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    private static Optional<String> query(RecordedRequest r, String name) {
        for (String pair : r.query().split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return Optional.of(pair.substring(eq + 1));
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean streamed(RecordedRequest r) {
        return r.path().endsWith(":streamGenerateContent");
    }

    @Override
    public List<String> toolNames(RecordedRequest r) {
        List<String> names = new ArrayList<>();
        camel(r.json()).path("tools").forEach(t -> t.path("functionDeclarations")
                .forEach(f -> names.add(f.path("name").asText())));
        return names;
    }

    @Override
    public Optional<String> reasoning(RecordedRequest r) {
        return camel(r.json()).path("generationConfig").path("thinkingConfig").path("includeThoughts").asBoolean(false)
                ? Optional.of("generationConfig.thinkingConfig.includeThoughts: true")
                : Optional.empty();
    }

    @Override
    public List<String> pngData(RecordedRequest r) {
        List<String> data = new ArrayList<>();
        for (JsonNode content : camel(r.json()).path("contents")) {
            for (JsonNode part : content.path("parts")) {
                JsonNode inline = part.path("inlineData");
                if (inline.path("mimeType").asText().equals(Fixtures.PNG_TYPE)) {
                    data.add(inline.path("data").asText());
                }
            }
        }
        return data;
    }

    @Override
    public Optional<String> jsonMode(RecordedRequest r) {
        return camel(r.json()).path("generationConfig").path("responseMimeType").asText("").equals("application/json")
                ? Optional.of("generationConfig.responseMimeType: application/json")
                : Optional.empty();
    }

    @Override
    public Optional<JsonNode> schema(RecordedRequest r) {
        JsonNode g = camel(r.json()).path("generationConfig");
        if (jsonMode(r).isEmpty()) {
            return Optional.empty();
        }
        return g.path("responseJsonSchema").isObject() ? Optional.of(g.path("responseJsonSchema"))
                : g.path("responseSchema").isObject() ? Optional.of(g.path("responseSchema")) : Optional.empty();
    }

    @Override
    public void answer(RecordedRequest r, RawExchange exchange, String text) throws IOException {
        Matcher path = PATH.matcher(r.path());
        String model = path.matches() ? path.group(1) : "?";
        if (!streamed(r)) {
            exchange.respondJson(200, response(model, text, true));
            return;
        }
        boolean sse = query(r, "alt").filter("sse"::equals).isPresent();
        List<String> pieces = UpstreamFormat.pieces(text);
        SseStream out = exchange.openSse(200, sse ? Map.of() : Map.of("content-type", "application/json; charset=UTF-8"));
        for (int i = 0; i < pieces.size(); i++) {
            String json = Fixtures.write(response(model, pieces.get(i), i == pieces.size() - 1));
            if (sse) {
                out.data(json);
            } else {
                out.raw((i == 0 ? "[" : ",\r\n") + json);
            }
        }
        if (!sse) {
            out.raw("]");
        }
        out.end();
    }

    private static ObjectNode response(String model, String text, boolean last) {
        ObjectNode response = Fixtures.object();
        ObjectNode candidate = response.putArray("candidates").addObject();
        ObjectNode content = candidate.putObject("content").put("role", "model");
        content.putArray("parts").addObject().put("text", text);
        if (last) {
            candidate.put("finishReason", "STOP");
        }
        candidate.put("index", 0);
        ObjectNode usage = response.putObject("usageMetadata").put("promptTokenCount", 12);
        if (last) {
            usage.put("candidatesTokenCount", 9).put("totalTokenCount", 21);
        } else {
            usage.put("totalTokenCount", 12);
        }
        response.put("modelVersion", model).put("responseId", "matrix-resp");
        return response;
    }
}
