package dev.switchboard.wire.openai;

import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.optBoolean;
import static dev.switchboard.wire.internal.JsonFields.optObject;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.path;
import static dev.switchboard.wire.internal.JsonFields.require;
import static dev.switchboard.wire.internal.JsonFields.requireNonEmptyString;
import static dev.switchboard.wire.internal.JsonFields.requireObject;
import static dev.switchboard.wire.internal.JsonFields.wrongType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads {@code tools} and {@code tool_choice} of a chat-completions request. */
final class OpenAiClientToolReader {
    private OpenAiClientToolReader() {
    }

    /** The schema OpenAI assumes for a function without {@code parameters}: no arguments. */
    static ObjectNode emptyParameters() {
        ObjectNode p = Json.object();
        p.put("type", "object");
        p.set("properties", Json.object());
        return p;
    }

    static List<ToolSpec> tools(ArrayNode tools) {
        List<ToolSpec> out = new ArrayList<>(tools.size());
        Set<String> names = new HashSet<>();
        for (int i = 0; i < tools.size(); i++) {
            String p = index("tools", i);
            ObjectNode tool = requireObject(tools.get(i), p);
            String type = optString(tool, "type", path(p, "type")).orElse("function");
            if (!type.equals("function")) {
                throw invalid(path(p, "type"), "`" + path(p, "type") + "` must be \"function\" (other tool kinds are "
                        + "not supported), got \"" + type + "\".");
            }
            String fp = path(p, "function");
            ObjectNode fn = requireObject(require(tool, "function", fp), fp);
            String name = requireNonEmptyString(fn, "name", path(fp, "name"));
            if (!names.add(name)) {
                throw invalid(path(fp, "name"), "Tool names must be unique; \"" + name + "\" is defined twice.");
            }
            JsonNode parameters = optObject(fn, "parameters", path(fp, "parameters"))
                    .<JsonNode>map(o -> o).orElseGet(OpenAiClientToolReader::emptyParameters);
            // Clients put the marker on the tool (Anthropic style) or inside the function; accept both.
            Optional<CacheMarker> cache = OpenAiCacheControls.read(tool, p).or(() -> OpenAiCacheControls.read(fn, fp));
            out.add(new ToolSpec(name, optString(fn, "description", path(fp, "description")), parameters,
                    optBoolean(fn, "strict", path(fp, "strict")), cache));
        }
        return out;
    }

    /**
     * {@code "auto" | "none" | "required" | {type: function, function: {name}}}; a named tool must be one of
     * {@code tools}, and {@code required} needs at least one tool.
     */
    static ToolChoice toolChoice(JsonNode v, List<ToolSpec> tools) {
        String p = "tool_choice";
        if (v.isTextual()) {
            return switch (v.textValue()) {
                case "auto" -> ToolChoice.AUTO;
                case "none" -> ToolChoice.NONE;
                case "required" -> {
                    if (tools.isEmpty()) {
                        throw invalid(p, "`tool_choice` \"required\" needs at least one tool in `tools`.");
                    }
                    yield ToolChoice.REQUIRED;
                }
                default -> throw invalid(p, "`tool_choice` must be \"auto\", \"none\", \"required\" or "
                        + "{\"type\": \"function\", \"function\": {\"name\": ...}}; got \"" + v.textValue() + "\".");
            };
        }
        if (!v.isObject()) {
            throw wrongType(p, "a string or an object", v);
        }
        String type = optString(v, "type", path(p, "type")).orElse("function");
        if (!type.equals("function")) {
            throw invalid(p, "`tool_choice.type` must be \"function\", got \"" + type + "\".");
        }
        String fp = path(p, "function");
        ObjectNode fn = requireObject(require(v, "function", fp), fp);
        String name = requireNonEmptyString(fn, "name", path(fp, "name"));
        if (tools.stream().noneMatch(t -> t.name().equals(name))) {
            throw invalid(p, "`tool_choice` names the tool \"" + name + "\", which is not among `tools`.");
        }
        return new ToolChoice.Named(name);
    }
}
