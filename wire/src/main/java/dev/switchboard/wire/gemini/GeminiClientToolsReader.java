package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.JsonFields;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code tools} and {@code toolConfig}. Function declarations are flattened across all
 * {@code tools[]} entries (spec 2.9); {@code parametersJsonSchema} is taken as it is and
 * {@code parameters} (Google's OpenAPI subset) converted to JSON Schema. Google's own tools
 * ({@code googleSearch}, {@code codeExecution}, {@code urlContext}...) have no canonical form and are
 * returned as {@code extras} for a Gemini upstream.
 *
 * <p>{@code functionCallingConfig.mode}: AUTO, ANY (a call is required), NONE, VALIDATED (call or text,
 * as AUTO). {@code allowedFunctionNames} with ANY or VALIDATED narrows the offered tools to those names,
 * which is what the restriction means; with ANY and exactly one name it is a forced call of that tool.
 * With AUTO or NONE Google ignores the list, and so do we.
 */
final class GeminiClientToolsReader {

    /** The tools the model may call, how it may call them, and Gemini-only tool entries. */
    record Tools(List<ToolSpec> tools, ToolChoice choice, ArrayNode extras) {
    }

    private GeminiClientToolsReader() {
    }

    static Tools read(GeminiObjectReader root) {
        Map<String, ToolSpec> declared = new LinkedHashMap<>();
        ArrayNode extras = Json.array();
        Optional<ArrayNode> tools = root.optArray("tools");
        if (tools.isPresent()) {
            for (GeminiObjectReader entry : GeminiObjectReader.objects(tools.get(), root.at("tools"))) {
                readEntry(entry, declared, extras);
            }
        }
        List<ToolSpec> specs = new ArrayList<>(declared.values());
        Optional<GeminiObjectReader> config = root.optObject("toolConfig").flatMap(c -> c.optObject("functionCallingConfig"));
        if (config.isEmpty()) {
            return new Tools(specs, ToolChoice.AUTO, extras);
        }
        GeminiObjectReader fcc = config.get();
        String mode = fcc.optString("mode").map(m -> m.toUpperCase(Locale.ROOT)).orElse("AUTO");
        List<String> allowed = fcc.optStringArray("allowedFunctionNames").orElse(List.of());
        for (int i = 0; i < allowed.size(); i++) {
            if (!declared.containsKey(allowed.get(i))) {
                String p = JsonFields.index(fcc.at("allowedFunctionNames"), i);
                throw JsonFields.invalid(p, "`" + p + "` names \"" + allowed.get(i) + "\", which no function declaration declares.");
            }
        }
        return switch (mode) {
            case "AUTO", "MODE_UNSPECIFIED" -> new Tools(specs, ToolChoice.AUTO, extras);
            case "NONE" -> new Tools(specs, ToolChoice.NONE, extras);
            case "ANY" -> allowed.size() == 1
                    ? new Tools(specs, new ToolChoice.Named(allowed.get(0)), extras)
                    : new Tools(only(specs, allowed), ToolChoice.REQUIRED, extras);
            case "VALIDATED" -> new Tools(only(specs, allowed), ToolChoice.AUTO, extras);
            default -> throw JsonFields.invalid(fcc.at("mode"), "`" + fcc.at("mode")
                    + "` must be AUTO, ANY, NONE or VALIDATED, got \"" + fcc.optString("mode").orElse("") + "\".");
        };
    }

    /**
     * Google's own tools (run by Google, not the client), kept for a Gemini upstream; other upstreams cannot
     * run them and the gateway names them in its dropped-fields header. Google answers 400 to any other kind,
     * so an unknown kind is refused here.
     */
    private static final Set<String> HOSTED = Set.of("googleSearch", "googleSearchRetrieval", "codeExecution", "urlContext",
            "computerUse", "fileSearch", "googleMaps", "enterpriseWebSearch", "mcpServers");

    private static void readEntry(GeminiObjectReader entry, Map<String, ToolSpec> declared, ArrayNode extras) {
        Optional<ArrayNode> functions = entry.optArray("functionDeclarations");
        if (functions.isPresent()) {
            for (GeminiObjectReader f : GeminiObjectReader.objects(functions.get(), entry.at("functionDeclarations"))) {
                ToolSpec spec = declaration(f);
                if (declared.putIfAbsent(spec.name(), spec) != null) {
                    throw JsonFields.invalid(f.at("name"), "`" + f.at("name") + "`: the function \"" + spec.name()
                            + "\" is declared twice.");
                }
            }
        }
        ObjectNode rest = entry.node().deepCopy();
        rest.remove(entry.key("functionDeclarations"));
        rest.fieldNames().forEachRemaining(kind -> {
            if (!HOSTED.contains(GeminiObjectReader.camel(kind))) {
                throw JsonFields.invalid(entry.at(kind), "`" + entry.at(kind) + "` is not a kind of tool Gemini knows; expected "
                        + "functionDeclarations or one of " + String.join(", ", new java.util.TreeSet<>(HOSTED)) + ".");
            }
        });
        if (!rest.isEmpty()) {
            extras.add(rest);
        }
    }

    private static ToolSpec declaration(GeminiObjectReader f) {
        String name = f.requireNonEmptyString("name");
        Optional<JsonNode> jsonSchema = f.opt("parametersJsonSchema");
        Optional<JsonNode> openApi = f.opt("parameters");
        if (jsonSchema.isPresent() && openApi.isPresent()) {
            throw JsonFields.invalid(f.at("parameters"), "`" + f.at("parameters") + "` and `" + f.at("parametersJsonSchema")
                    + "` are mutually exclusive.");
        }
        JsonNode parameters;
        if (jsonSchema.isPresent()) {
            parameters = JsonFields.requireObject(jsonSchema.get(), f.at("parametersJsonSchema")).deepCopy();
        } else if (openApi.isPresent()) {
            parameters = GeminiOpenApiSchemas.toJsonSchema(JsonFields.requireObject(openApi.get(), f.at("parameters")));
        } else {
            ObjectNode empty = Json.object();
            empty.put("type", "object");
            empty.putObject("properties");
            parameters = empty;
        }
        return new ToolSpec(name, f.optString("description"), parameters, Optional.empty(), Optional.empty());
    }

    private static List<ToolSpec> only(List<ToolSpec> specs, List<String> allowed) {
        if (allowed.isEmpty()) {
            return specs;
        }
        Set<String> names = new HashSet<>(allowed);
        return specs.stream().filter(s -> names.contains(s.name())).toList();
    }
}
