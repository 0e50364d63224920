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
import dev.switchboard.model.Passthrough;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.FreeformTools;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the {@code tools} of a Responses request, plus those of its {@code additional_tools} input items, and
 * its {@code tool_choice} (the function's fields sit directly on the tool, not under {@code function}).
 *
 * <ul>
 *   <li>{@code function}: a canonical tool as it is.
 *   <li>{@code custom} (free-text input, optionally a {@code grammar}): a canonical free-text tool
 *       ({@link ToolSpec#freeform()}) with its {@code format} as sent; its calls go back as custom calls.
 *   <li>{@code namespace}: its functions and custom tools, each named {@code <namespace>__<name>}; calls go
 *       back with their namespace (see {@link ResponsesToolNames}).
 *   <li>Hosted tools run only inside OpenAI and no upstream of the gateway runs them. Per tool:
 *       {@link #DROPPED_HOSTED} (web search: the model answers from what it knows, and an agent that offers
 *       it keeps working) are left out and named in {@link Result#dropped()}, which the edge reports in a
 *       response header; every other hosted tool (file search, code interpreter, MCP, computer use, ...)
 *       would change what the answer means when missing, so it is refused with a 400 naming it.
 * </ul>
 */
final class ResponsesToolReader {
    /** The grammar syntaxes OpenAI defines for a custom tool's {@code format}. */
    static final Set<String> GRAMMAR_SYNTAXES = Set.of("lark", "regex");
    /** Hosted tools left out (and reported) rather than refused. */
    static final Set<String> DROPPED_HOSTED = Set.of("web_search", "web_search_preview", "web_search_preview_2025_03_11",
            "web_search_2025_08_26");

    /** The canonical tools and choice, the tools as the response object echoes them, and the hosted tools left out. */
    record Result(List<ToolSpec> tools, ToolChoice choice, ArrayNode echoTools, JsonNode echoChoice, List<String> dropped) {
    }

    /** A {@code tools} array and its JSON path: the request's own, or one of an {@code additional_tools} item. */
    record ToolList(ArrayNode tools, String path) {
    }

    private ResponsesToolReader() {
    }

    static Result read(ObjectNode body, List<ToolList> additional) {
        ArrayNode echo = Json.array();
        List<ToolSpec> tools = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<String> dropped = new ArrayList<>();
        List<ToolList> lists = new ArrayList<>();
        optArray(body, "tools", "tools").ifPresent(a -> lists.add(new ToolList(a, "tools")));
        lists.addAll(additional);
        for (ToolList list : lists) {
            for (int i = 0; i < list.tools().size(); i++) {
                String p = index(list.path(), i);
                ObjectNode t = requireObject(list.tools().get(i), p);
                String type = requireString(t, "type", path(p, "type"));
                switch (type) {
                    case "function", "custom" -> tools.add(tool(t, p, Optional.empty(), names));
                    case "namespace" -> {
                        String ns = requireNonEmptyString(t, "name", path(p, "name"));
                        ArrayNode inner = optArray(t, "tools", path(p, "tools")).orElseThrow(() ->
                                invalid(path(p, "tools"), "`" + path(p, "tools") + "` is required in a namespace."));
                        for (int j = 0; j < inner.size(); j++) {
                            String ip = index(path(p, "tools"), j);
                            ObjectNode it = requireObject(inner.get(j), ip);
                            String innerType = requireString(it, "type", path(ip, "type"));
                            if (!innerType.equals("function") && !innerType.equals("custom")) {
                                throw invalid(path(ip, "type"), "`" + path(ip, "type") + "` must be \"function\" or "
                                        + "\"custom\" inside a namespace; got \"" + innerType + "\".");
                            }
                            tools.add(tool(it, ip, Optional.of(ns), names));
                        }
                    }
                    default -> {
                        if (!DROPPED_HOSTED.contains(type)) {
                            throw invalid(path(p, "type"), "`" + path(p, "type") + "` must be \"function\", \"custom\" or "
                                    + "\"namespace\"; hosted tools such as \"" + type + "\" run only inside OpenAI and "
                                    + "are not supported.");
                        }
                        dropped.add(type);
                        continue;
                    }
                }
                echo.add(echo(t, type));
            }
        }
        return choice(body, tools, echo, dropped);
    }

    /** One function or custom tool, named with its namespace when it has one. */
    private static ToolSpec tool(ObjectNode t, String p, Optional<String> namespace, Set<String> names) {
        String name = ResponsesToolNames.flat(namespace, requireNonEmptyString(t, "name", path(p, "name")));
        if (!names.add(name)) {
            throw invalid(path(p, "name"), "Tool names must be unique; \"" + name + "\" is defined twice"
                    + (namespace.isPresent() ? " (a namespaced tool is named <namespace>__<name>)." : "."));
        }
        Optional<String> description = optString(t, "description", path(p, "description"));
        if (requireString(t, "type", path(p, "type")).equals("custom")) {
            return new ToolSpec(name, description, FreeformTools.parameters(), Optional.empty(), Optional.empty(),
                    Passthrough.NONE, Optional.of(new ToolSpec.Freeform(customFormat(t, p))));
        }
        Optional<ObjectNode> parameters = optObject(t, "parameters", path(p, "parameters"));
        Optional<Boolean> strict = optBoolean(t, "strict", path(p, "strict"));
        return new ToolSpec(name, description, parameters.<JsonNode>map(o -> o).orElseGet(ResponsesToolReader::noArguments),
                strict, Optional.empty());
    }

    /** A custom tool's {@code format} as sent: none, {@code {type: "text"}} or a grammar. */
    private static Optional<ToolSpec.Freeform.Format> customFormat(ObjectNode t, String p) {
        Optional<ObjectNode> format = optObject(t, "format", path(p, "format"));
        if (format.isEmpty()) {
            return Optional.empty();
        }
        String fp = path(p, "format");
        String type = requireString(format.get(), "type", path(fp, "type"));
        return Optional.of(switch (type) {
            case "text" -> new ToolSpec.Freeform.Format.Text();
            case "grammar" -> {
                String syntax = requireString(format.get(), "syntax", path(fp, "syntax"));
                if (!GRAMMAR_SYNTAXES.contains(syntax)) {
                    throw invalid(path(fp, "syntax"), "`" + path(fp, "syntax") + "` must be \"lark\" or \"regex\"; got \""
                            + syntax + "\".");
                }
                yield new ToolSpec.Freeform.Format.Grammar(syntax,
                        requireNonEmptyString(format.get(), "definition", path(fp, "definition")));
            }
            default -> throw invalid(path(fp, "type"), "`" + path(fp, "type") + "` must be \"text\" or \"grammar\"; got \""
                    + type + "\".");
        });
    }

    /** How the response object shows a tool: functions as OpenAI echoes them, custom and namespace tools as sent. */
    private static ObjectNode echo(ObjectNode t, String type) {
        if (!type.equals("function")) {
            return t.deepCopy();
        }
        ObjectNode e = Json.object();
        e.put("type", "function");
        e.put("name", t.get("name").textValue());
        optString(t, "description", "description").ifPresent(d -> e.put("description", d));
        e.set("parameters", t.has("parameters") ? t.get("parameters").deepCopy() : Json.MAPPER.nullNode());
        JsonNode strict = t.get("strict");
        if (strict != null && strict.isBoolean()) {
            e.put("strict", strict.booleanValue());
        } else {
            e.putNull("strict");
        }
        return e;
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
    private static Result choice(ObjectNode body, List<ToolSpec> tools, ArrayNode echoTools, List<String> dropped) {
        String p = "tool_choice";
        JsonNode v = body.get(p);
        if (v == null || v.isNull()) {
            return new Result(tools, ToolChoice.AUTO, echoTools, Json.MAPPER.getNodeFactory().textNode("auto"), dropped);
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
            return new Result(tools, c, echoTools, v, dropped);
        }
        if (!(v instanceof ObjectNode o)) {
            throw wrongType(p, "a string or an object", v);
        }
        String type = requireString(o, "type", path(p, "type"));
        switch (type) {
            case "function", "custom" -> {
                String name = ResponsesToolNames.flat(optString(o, "namespace", path(p, "namespace")),
                        requireNonEmptyString(o, "name", path(p, "name")));
                if (tools.stream().noneMatch(t -> t.name().equals(name))) {
                    throw invalid(path(p, "name"), "`tool_choice` names the tool \"" + name
                            + "\", which is not among `tools`.");
                }
                ObjectNode echo = o.deepCopy();
                return new Result(tools, new ToolChoice.Named(name), echoTools, echo, dropped);
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
                return new Result(narrowed, c, echoTools, o, dropped);
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
