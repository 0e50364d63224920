package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Sampling;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.JsonFields;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a client's {@code generationConfig} into canonical sampling, limits, output format and
 * reasoning controls, and {@code responseLogprobs} with {@code logprobs} (0 to 20 alternatives) into the
 * canonical logprobs request. Fields the canonical model has no place for (e.g. {@code responseModalities},
 * {@code mediaResolution}, {@code speechConfig}) are kept in {@code extras},
 * to be sent on unchanged to a Gemini upstream only.
 *
 * <ul>
 *   <li>{@code candidateCount} other than 1 is a 400: only the first candidate is ever returned (spec 8).</li>
 *   <li>{@code responseMimeType: application/json} asks for JSON; with {@code responseJsonSchema} (plain
 *       JSON Schema) or {@code responseSchema} (Google's OpenAPI subset, converted) for schema-shaped
 *       JSON. {@code text/x.enum} has no canonical equivalent and travels in {@code extras}.</li>
 *   <li>{@code thinkingConfig}: {@code thinkingBudget} 0 is the off switch, -1 dynamic (mode AUTO), N a
 *       budget; {@code thinkingLevel} an effort. {@code includeThoughts} decides whether the trace is
 *       shown: absent or false with other controls means "think, but do not show" ({@code exclude});
 *       {@code includeThoughts: true} alone means dynamic thinking, shown.</li>
 * </ul>
 */
final class GeminiGenerationConfigReader {
    private static final Set<String> TRANSLATED = Set.of("temperature", "topP", "topK", "candidateCount",
            "maxOutputTokens", "stopSequences", "presencePenalty", "frequencyPenalty", "seed", "responseMimeType",
            "responseSchema", "responseJsonSchema", "thinkingConfig", "responseLogprobs", "logprobs");
    /**
     * Google's other generation settings (its v1beta {@code GenerationConfig}), passed to a Gemini upstream
     * as they are. Google answers 400 to a key it does not know, so any other key is refused here, naming it.
     */
    private static final Set<String> UNTRANSLATED = Set.of("responseModalities",
            "enableEnhancedCivicAnswers", "speechConfig", "imageConfig", "mediaResolution", "audioTimestamp");
    private static final Set<String> KNOWN = union(TRANSLATED, UNTRANSLATED);

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    /** Spec 8: at most 4 stop sequences, in every format (Google's own API takes 5). */
    private static final int MAX_STOP_SEQUENCES = 4;

    /** What {@code generationConfig} says, in canonical terms. */
    record Settings(Sampling sampling, OptionalInt maxTokens, List<String> stop, ResponseFormat responseFormat,
                    Reasoning reasoning, ObjectNode extras, OptionalInt logprobs) {
        static final Settings DEFAULT = new Settings(Sampling.DEFAULT, OptionalInt.empty(), List.of(),
                ResponseFormat.TEXT, Reasoning.NONE, Json.object(), OptionalInt.empty());
    }

    private GeminiGenerationConfigReader() {
    }

    static Settings read(GeminiObjectReader root) {
        Optional<GeminiObjectReader> config = root.optObject("generationConfig");
        return config.map(GeminiGenerationConfigReader::read0).orElse(Settings.DEFAULT);
    }

    private static Settings read0(GeminiObjectReader g) {
        OptionalInt candidates = g.optWholeNumber("candidateCount", Integer.MIN_VALUE, Integer.MAX_VALUE);
        if (candidates.isPresent() && candidates.getAsInt() != 1) {
            throw JsonFields.invalid(g.at("candidateCount"), "`" + g.at("candidateCount")
                    + "` must be 1: only one candidate is returned, got " + candidates.getAsInt() + ".");
        }
        Sampling sampling = new Sampling(
                g.optNumber("temperature", 0, 2),
                g.optNumber("topP", 0, 1),
                g.optWholeNumber("topK", 1, Integer.MAX_VALUE),
                g.optNumber("presencePenalty", -2, 2),
                g.optNumber("frequencyPenalty", -2, 2),
                seed(g));
        OptionalInt maxTokens = g.optWholeNumber("maxOutputTokens", 1, Integer.MAX_VALUE);
        List<String> stop = g.optStringArray("stopSequences").orElse(List.of());
        if (stop.size() > MAX_STOP_SEQUENCES) {
            throw JsonFields.invalid(g.at("stopSequences"), "`" + g.at("stopSequences") + "` may hold at most "
                    + MAX_STOP_SEQUENCES + " sequences, got " + stop.size() + ".");
        }
        ObjectNode extras = Json.object();
        ResponseFormat format = responseFormat(g, extras);
        Reasoning reasoning = g.optObject("thinkingConfig").map(GeminiGenerationConfigReader::reasoning).orElse(Reasoning.NONE);
        for (Map.Entry<String, JsonNode> e : g.node().properties()) {
            String key = camel(e.getKey());
            if (TRANSLATED.contains(key) || e.getValue().isNull()) {
                continue;
            }
            if (!UNTRANSLATED.contains(key)) {
                throw JsonFields.invalid(g.at(e.getKey()), "`" + g.at(e.getKey()) + "` is not a generation setting Gemini "
                        + "knows; expected one of " + String.join(", ", new java.util.TreeSet<>(KNOWN)) + ".");
            }
            extras.set(e.getKey(), e.getValue().deepCopy());
        }
        return new Settings(sampling, maxTokens, stop, format, reasoning, extras, logprobs(g));
    }

    /** {@code responseLogprobs: true} with {@code logprobs} alternatives (0 when not given). */
    private static OptionalInt logprobs(GeminiObjectReader g) {
        boolean on = g.optBoolean("responseLogprobs").orElse(false);
        OptionalInt top = g.optWholeNumber("logprobs", 0, 20);
        if (!on && top.orElse(0) > 0) {
            throw JsonFields.invalid(g.at("logprobs"), "`" + g.at("logprobs") + "` needs `"
                    + g.at("responseLogprobs") + ": true`.");
        }
        return on ? OptionalInt.of(top.orElse(0)) : OptionalInt.empty();
    }

    private static OptionalLong seed(GeminiObjectReader g) {
        OptionalInt s = g.optWholeNumber("seed", Integer.MIN_VALUE, Integer.MAX_VALUE);
        return s.isPresent() ? OptionalLong.of(s.getAsInt()) : OptionalLong.empty();
    }

    private static ResponseFormat responseFormat(GeminiObjectReader g, ObjectNode extras) {
        String mime = g.optString("responseMimeType").orElse("text/plain");
        Optional<JsonNode> jsonSchema = g.opt("responseJsonSchema");
        Optional<JsonNode> openApiSchema = g.opt("responseSchema");
        if (jsonSchema.isPresent() && openApiSchema.isPresent()) {
            throw JsonFields.invalid(g.at("responseSchema"), "`" + g.at("responseSchema") + "` and `"
                    + g.at("responseJsonSchema") + "` are mutually exclusive.");
        }
        switch (mime) {
            case "text/x.enum" -> {
                extras.put(g.key("responseMimeType"), mime);
                openApiSchema.ifPresent(s -> extras.set(g.key("responseSchema"), s.deepCopy()));
                jsonSchema.ifPresent(s -> extras.set(g.key("responseJsonSchema"), s.deepCopy()));
                return ResponseFormat.TEXT;
            }
            case "application/json", "text/plain" -> {
                // a schema implies JSON even when the mime type was left out
            }
            default -> throw JsonFields.invalid(g.at("responseMimeType"), "`" + g.at("responseMimeType")
                    + "` must be text/plain, application/json or text/x.enum, got \"" + mime + "\".");
        }
        if (jsonSchema.isPresent()) {
            return schema(JsonFields.requireObject(jsonSchema.get(), g.at("responseJsonSchema")));
        }
        if (openApiSchema.isPresent()) {
            return schema(GeminiOpenApiSchemas.toJsonSchema(JsonFields.requireObject(openApiSchema.get(), g.at("responseSchema"))));
        }
        return mime.equals("application/json") ? ResponseFormat.JSON_OBJECT : ResponseFormat.TEXT;
    }

    private static ResponseFormat schema(JsonNode schema) {
        return new ResponseFormat.JsonSchema("response", Optional.empty(), schema, false);
    }

    private static Reasoning reasoning(GeminiObjectReader t) {
        OptionalInt budget = t.optWholeNumber("thinkingBudget", -1, Integer.MAX_VALUE);
        Optional<Reasoning.Effort> effort = t.optString("thinkingLevel").map(level -> effort(level, t.at("thinkingLevel")));
        Optional<Boolean> include = t.optBoolean("includeThoughts");
        Optional<Reasoning.Mode> mode = Optional.empty();
        OptionalInt budgetTokens = OptionalInt.empty();
        if (budget.isPresent()) {
            switch (budget.getAsInt()) {
                case 0 -> mode = Optional.of(Reasoning.Mode.OFF);
                case -1 -> mode = Optional.of(Reasoning.Mode.AUTO);
                default -> budgetTokens = budget;
            }
        }
        if (mode.isEmpty() && budgetTokens.isEmpty() && effort.isEmpty()) {
            if (!include.orElse(false)) {
                return Reasoning.NONE; // nothing asked: the provider's default
            }
            mode = Optional.of(Reasoning.Mode.AUTO);
        }
        return new Reasoning(effort, mode, budgetTokens, Reasoning.Format.SEPARATE, !include.orElse(false),
                Optional.empty());
    }

    private static Reasoning.Effort effort(String level, String path) {
        return switch (level.toUpperCase(Locale.ROOT)) {
            case "MINIMAL" -> Reasoning.Effort.MINIMAL;
            case "LOW" -> Reasoning.Effort.LOW;
            case "MEDIUM" -> Reasoning.Effort.MEDIUM;
            case "HIGH" -> Reasoning.Effort.HIGH;
            default -> throw JsonFields.invalid(path, "`" + path + "` must be MINIMAL, LOW, MEDIUM or HIGH, got \"" + level + "\".");
        };
    }

    /** {@code max_output_tokens} becomes {@code maxOutputTokens}. */
    private static String camel(String key) {
        return GeminiObjectReader.camel(key);
    }
}
