package dev.switchboard.wire.responses;

import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.optArray;
import static dev.switchboard.wire.internal.JsonFields.optBoolean;
import static dev.switchboard.wire.internal.JsonFields.optObject;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.path;
import static dev.switchboard.wire.internal.JsonFields.requireNonEmptyString;
import static dev.switchboard.wire.internal.JsonFields.requireObject;
import static dev.switchboard.wire.internal.JsonFields.requireString;
import static dev.switchboard.wire.internal.JsonFields.wrongType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the flat function {@code tools} of a Responses request and its {@code tool_choice} (the
 * function's fields sit directly on the tool, not under {@code function}). Hosted tools (web search,
 * file search, MCP, ...) run inside OpenAI and no other provider can run them, so they are refused by
 * name rather than silently dropped.
 */
final class ResponsesToolReader {

    /** The canonical tools and choice, and the tools as the response object echoes them. */
    record Result(List<ToolSpec> tools, ToolChoice choice, ArrayNode echoTools, JsonNode echoChoice) {
    }

    private ResponsesToolReader() {
    }

    static Result read(ObjectNode body) {
        ArrayNode echo = Json.array();
        List<ToolSpec> tools = new ArrayList<>();
        Set<String> names = new HashSet<>();
        ArrayNode given = optArray(body, "tools", "tools").orElseGet(Json::array);
        for (int i = 0; i < given.size(); i++) {
            String p = index("tools", i);
            ObjectNode t = requireObject(given.get(i), p);
            String type = requireString(t, "type", path(p, "type"));
            if (!type.equals("function")) {
                throw invalid(path(p, "type"), "`" + path(p, "type") + "` must be \"function\"; hosted tools such as \""
                        + type + "\" run only inside OpenAI and are not supported.");
            }
            String name = requireNonEmptyString(t, "name", path(p, "name"));
            if (!names.add(name)) {
                throw invalid(path(p, "name"), "Tool names must be unique; \"" + name + "\" is defined twice.");
            }
            Optional<ObjectNode> parameters = optObject(t, "parameters", path(p, "parameters"));
            Optional<String> description = optString(t, "description", path(p, "description"));
            Optional<Boolean> strict = optBoolean(t, "strict", path(p, "strict"));
            tools.add(new ToolSpec(name, description, parameters.<JsonNode>map(o -> o).orElseGet(ResponsesToolReader::noArguments),
                    strict, Optional.empty()));
            ObjectNode e = echo.addObject();
            e.put("type", "function");
            e.put("name", name);
            description.ifPresent(d -> e.put("description", d));
            e.set("parameters", parameters.<JsonNode>map(o -> o).orElse(Json.MAPPER.nullNode()));
            if (strict.isPresent()) {
                e.put("strict", strict.get());
            } else {
                e.putNull("strict");
            }
        }
        return choice(body, tools, echo);
    }

    /** The schema assumed for a function without {@code parameters}: no arguments. */
    private static ObjectNode noArguments() {
        ObjectNode p = Json.object();
        p.put("type", "object");
        p.set("properties", Json.object());
        return p;
    }

    /**
     * {@code "auto" | "none" | "required" | {type: function, name} | {type: allowed_tools, mode, tools}}.
     * {@code allowed_tools} narrows the tools the model sees to the listed ones; the canonical model has
     * no subset switch, and leaving the others out means the same to every provider.
     */
    private static Result choice(ObjectNode body, List<ToolSpec> tools, ArrayNode echoTools) {
        String p = "tool_choice";
        JsonNode v = body.get(p);
        if (v == null || v.isNull()) {
            return new Result(tools, ToolChoice.AUTO, echoTools, Json.MAPPER.getNodeFactory().textNode("auto"));
        }
        if (v.isTextual()) {
            ToolChoice c = switch (v.textValue()) {
                case "auto" -> ToolChoice.AUTO;
                case "none" -> ToolChoice.NONE;
                case "required" -> requireTools(tools, p, ToolChoice.REQUIRED);
                default -> throw invalid(p, "`tool_choice` must be \"auto\", \"none\", \"required\", "
                        + "{\"type\": \"function\", \"name\": ...} or {\"type\": \"allowed_tools\", ...}; got \""
                        + v.textValue() + "\".");
            };
            return new Result(tools, c, echoTools, v);
        }
        if (!(v instanceof ObjectNode o)) {
            throw wrongType(p, "a string or an object", v);
        }
        String type = requireString(o, "type", path(p, "type"));
        switch (type) {
            case "function" -> {
                String name = requireNonEmptyString(o, "name", path(p, "name"));
                if (tools.stream().noneMatch(t -> t.name().equals(name))) {
                    throw invalid(path(p, "name"), "`tool_choice` names the tool \"" + name
                            + "\", which is not among `tools`.");
                }
                ObjectNode echo = Json.object().put("type", "function").put("name", name);
                return new Result(tools, new ToolChoice.Named(name), echoTools, echo);
            }
            case "allowed_tools" -> {
                String mode = optString(o, "mode", path(p, "mode")).orElse("auto");
                if (!mode.equals("auto") && !mode.equals("required")) {
                    throw invalid(path(p, "mode"), "`tool_choice.mode` must be \"auto\" or \"required\"; got \""
                            + mode + "\".");
                }
                Set<String> allowed = allowedNames(o, tools);
                List<ToolSpec> narrowed = tools.stream().filter(t -> allowed.contains(t.name())).toList();
                ToolChoice c = mode.equals("required") ? requireTools(narrowed, p, ToolChoice.REQUIRED) : ToolChoice.AUTO;
                return new Result(narrowed, c, echoTools, o);
            }
            default -> throw invalid(path(p, "type"), "`tool_choice.type` must be \"function\" or \"allowed_tools\"; "
                    + "hosted-tool choices such as \"" + type + "\" are not supported.");
        }
    }

    private static Set<String> allowedNames(ObjectNode o, List<ToolSpec> tools) {
        String ap = path("tool_choice", "tools");
        ArrayNode list = optArray(o, "tools", ap).orElseThrow(() -> invalid(ap, "`" + ap + "` is required."));
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String ep = index(ap, i);
            ObjectNode e = requireObject(list.get(i), ep);
            String name = requireNonEmptyString(e, "name", path(ep, "name"));
            if (tools.stream().noneMatch(t -> t.name().equals(name))) {
                throw invalid(path(ep, "name"), "`" + path(ep, "name") + "` names the tool \"" + name
                        + "\", which is not among `tools`.");
            }
            names.add(name);
        }
        return names;
    }

    private static ToolChoice requireTools(List<ToolSpec> tools, String p, ToolChoice c) {
        if (tools.isEmpty()) {
            throw invalid(p, "`tool_choice` \"required\" needs at least one tool in `tools`.");
        }
        return c;
    }
}
