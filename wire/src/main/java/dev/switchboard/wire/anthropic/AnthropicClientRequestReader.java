package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Message;
import dev.switchboard.model.Passthrough;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.GatewayFields;
import dev.switchboard.wire.internal.JsonFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a client's {@code POST /v1/messages} body (spec 2.7) into a canonical
 * {@link ChatRequest}, or throws a 400 whose {@code param} is the JSON path of the offending field.
 *
 * <p>Also read, although spec 2.7 does not list them, because the official SDK sends them or the service
 * consumes them on every format: {@code output_config} (effort, json_schema format), {@code thinking}
 * {@code adaptive}/{@code disabled}, {@code tool_choice none}, {@code models}, system entries between turns
 * ({@code role: "system"} inside {@code messages}, text blocks only), and the service-only
 * {@code transforms}, {@code skill}, {@code skills}, {@code ignore_defaults}, {@code reasoning}. Every
 * other top-level field goes to {@code Passthrough("anthropic")} unchanged, so that an Anthropic upstream
 * still receives it. Server tools (a {@code tools[]} entry whose {@code type} is versioned, e.g.
 * {@code web_search_20250305}) go there too, under {@code tools}; so do the parts of {@code thinking} and
 * {@code output_config} the canonical model has no field for (e.g. {@code thinking.display}).
 */
final class AnthropicClientRequestReader {
    static final int MAX_STOP_SEQUENCES = 4;

    /** A function tool's fields read into {@link ToolSpec}; the others travel as its pass-through. */
    private static final Set<String> TOOL_FIELDS = Set.of("name", "description", "input_schema", "strict", "cache_control", "type");
    /** Fields this reader consumes; all others are passed through. */
    private static final Set<String> KNOWN = Set.of("model", "max_tokens", "messages", "system", "temperature",
            "top_p", "top_k", "stop_sequences", "stream", "metadata", "tools", "tool_choice", "thinking",
            "output_config", "output_format", "fallbacks", "models", "transforms", "skill", "skills", "ignore_defaults",
            "reasoning");

    private AnthropicClientRequestReader() {
    }

    static ChatRequest read(JsonNode body) {
        return read(body, true);
    }

    /**
     * A {@code count_tokens} body: the same fields, but {@code max_tokens} is not part
     * of it, so it is optional here (still checked when present).
     */
    static ChatRequest readForCounting(JsonNode body) {
        return read(body, false);
    }

    private static ChatRequest read(JsonNode body, boolean maxTokensRequired) {
        if (!(body instanceof ObjectNode root)) {
            throw GatewayError.invalidRequest("The request body must be a JSON object.").toException();
        }
        AnthropicCacheControls.Breakpoints breakpoints = new AnthropicCacheControls.Breakpoints();
        AnthropicClientContentReader content = new AnthropicClientContentReader(breakpoints);
        Map<String, JsonNode> passthrough = new LinkedHashMap<>();

        ChatRequest.Builder b = ChatRequest.builder(JsonFields.requireNonEmptyString(root, "model", "model"));
        OptionalInt maxTokens = JsonFields.optInt(root, "max_tokens", "max_tokens", 1, Integer.MAX_VALUE);
        if (maxTokens.isEmpty() && maxTokensRequired) {
            throw JsonFields.invalid("max_tokens", "`max_tokens` is required.");
        }
        b.maxTokens(maxTokens);

        // Prompt order is tools, system, messages; breakpoints are counted in that order too.
        readTools(root, b, breakpoints, passthrough);
        b.system(system(root, content));
        b.messages(messages(root, content));
        countTopLevelCacheControl(root, breakpoints);

        b.toolChoice(ToolChoice.AUTO);
        JsonFields.optObject(root, "tool_choice", "tool_choice").ifPresent(tc -> readToolChoice(tc, b));
        b.sampling(new Sampling(
                JsonFields.optNumber(root, "temperature", "temperature", 0, 1),
                JsonFields.optNumber(root, "top_p", "top_p", 0, 1),
                JsonFields.optInt(root, "top_k", "top_k", 0, Integer.MAX_VALUE),
                Optional.empty(), Optional.empty(), OptionalLong.empty()));
        List<String> stop = JsonFields.optStringArray(root, "stop_sequences", "stop_sequences").orElse(List.of());
        if (stop.size() > MAX_STOP_SEQUENCES) {
            throw JsonFields.invalid("stop_sequences",
                    "`stop_sequences` may hold at most " + MAX_STOP_SEQUENCES + " entries, got " + stop.size() + ".");
        }
        b.stop(stop);
        b.stream(JsonFields.optBoolean(root, "stream", "stream").orElse(false));
        JsonFields.optObject(root, "metadata", "metadata")
                .ifPresent(m -> b.user(JsonFields.optString(m, "user_id", "metadata.user_id")));
        b.reasoning(reasoning(root, passthrough));
        b.responseFormat(responseFormat(root));
        b.fallbackModels(GatewayFields.fallbacks(root));
        b.transforms(GatewayFields.transforms(root));
        b.skills(GatewayFields.skills(root));
        b.ignoreDefaults(GatewayFields.ignoreDefaults(root));

        for (Map.Entry<String, JsonNode> field : root.properties()) {
            if (!KNOWN.contains(field.getKey()) && !field.getValue().isNull()) {
                passthrough.put(field.getKey(), field.getValue().deepCopy());
            }
        }
        b.passthrough(passthrough.isEmpty() ? Passthrough.NONE : new Passthrough(Anthropic.FORMAT, passthrough));
        return b.build();
    }

    private static List<ContentBlock> system(ObjectNode root, AnthropicClientContentReader content) {
        Optional<JsonNode> system = JsonFields.opt(root, "system");
        if (system.isEmpty()) {
            return List.of();
        }
        if (system.get().isTextual()) {
            String text = system.get().textValue();
            return text.isEmpty() ? List.of() : List.of(ContentBlock.Text.of(text));
        }
        ArrayNode blocks = JsonFields.requireArray(system.get(), "system");
        List<ContentBlock> out = new ArrayList<>(blocks.size());
        for (int i = 0; i < blocks.size(); i++) {
            out.add(content.systemBlock(blocks.get(i), JsonFields.index("system", i)));
        }
        return out;
    }

    /** Consecutive turns of one role are kept as they are; the upstream writer merges them where needed. */
    private static List<Message> messages(ObjectNode root, AnthropicClientContentReader content) {
        ArrayNode messages = JsonFields.requireArray(JsonFields.require(root, "messages", "messages"), "messages");
        if (messages.isEmpty()) {
            throw JsonFields.invalid("messages", "`messages` must hold at least one message.");
        }
        List<Message> out = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            String path = JsonFields.index("messages", i);
            JsonNode message = JsonFields.requireObject(messages.get(i), path);
            String rolePath = JsonFields.path(path, "role");
            Role role = switch (JsonFields.requireString(message, "role", rolePath)) {
                case "user" -> Role.USER;
                case "assistant" -> Role.ASSISTANT;
                case "system" -> Role.SYSTEM;
                default -> throw JsonFields.invalid(rolePath, "`" + rolePath + "` must be \"user\", \"assistant\" or \"system\".");
            };
            String contentPath = JsonFields.path(path, "content");
            JsonNode body = JsonFields.require(message, "content", contentPath);
            out.add(new Message(role, role == Role.SYSTEM ? systemEntry(body, contentPath, content)
                    : content.content(body, contentPath, role)));
        }
        return out;
    }

    /** A system entry between turns: a non-empty string or text blocks (with cache markers), like {@code system}. */
    private static List<ContentBlock> systemEntry(JsonNode body, String path, AnthropicClientContentReader content) {
        if (body.isTextual()) {
            if (body.textValue().isEmpty()) {
                throw JsonFields.invalid(path, "`" + path + "` must not be empty.");
            }
            return List.of(ContentBlock.Text.of(body.textValue()));
        }
        ArrayNode blocks = JsonFields.requireArray(body, path);
        if (blocks.isEmpty()) {
            throw JsonFields.invalid(path, "`" + path + "` must hold at least one text block.");
        }
        List<ContentBlock> out = new ArrayList<>(blocks.size());
        for (int i = 0; i < blocks.size(); i++) {
            out.add(content.systemBlock(blocks.get(i), JsonFields.index(path, i)));
        }
        return out;
    }

    /** A tool's fields the canonical model has no word for ({@code defer_loading}, {@code input_examples}...). */
    private static Passthrough toolExtras(JsonNode tool) {
        Map<String, JsonNode> extras = new LinkedHashMap<>();
        tool.properties().forEach(e -> {
            if (!TOOL_FIELDS.contains(e.getKey()) && !e.getValue().isNull()) {
                extras.put(e.getKey(), e.getValue().deepCopy());
            }
        });
        return extras.isEmpty() ? Passthrough.NONE : new Passthrough(Anthropic.FORMAT, extras);
    }

    private static void readTools(ObjectNode root, ChatRequest.Builder b, AnthropicCacheControls.Breakpoints breakpoints,
                                  Map<String, JsonNode> passthrough) {
        Optional<ArrayNode> tools = JsonFields.optArray(root, "tools", "tools");
        if (tools.isEmpty()) {
            return;
        }
        List<ToolSpec> specs = new ArrayList<>();
        ArrayNode serverTools = Json.array();
        for (int i = 0; i < tools.get().size(); i++) {
            String path = JsonFields.index("tools", i);
            JsonNode tool = JsonFields.requireObject(tools.get().get(i), path);
            Optional<String> type = JsonFields.optString(tool, "type", JsonFields.path(path, "type"));
            if (type.isPresent() && !type.get().equals("custom")) {
                // A server tool (web search, code execution...): only Anthropic can run it.
                JsonFields.requireNonEmptyString(tool, "name", JsonFields.path(path, "name"));
                AnthropicCacheControls.read(tool, path, breakpoints);
                serverTools.add(tool.deepCopy());
                continue;
            }
            String schemaPath = JsonFields.path(path, "input_schema");
            JsonNode schema = JsonFields.requireObject(JsonFields.require(tool, "input_schema", schemaPath), schemaPath);
            specs.add(new ToolSpec(
                    JsonFields.requireNonEmptyString(tool, "name", JsonFields.path(path, "name")),
                    JsonFields.optString(tool, "description", JsonFields.path(path, "description")),
                    schema.deepCopy(),
                    JsonFields.optBoolean(tool, "strict", JsonFields.path(path, "strict")),
                    AnthropicCacheControls.read(tool, path, breakpoints),
                    toolExtras(tool)));
        }
        b.tools(specs);
        if (!serverTools.isEmpty()) {
            passthrough.put("tools", serverTools);
        }
    }

    /** The newer top-level {@code cache_control} (auto-marks the last cacheable block) is passed through but counted. */
    private static void countTopLevelCacheControl(ObjectNode root, AnthropicCacheControls.Breakpoints breakpoints) {
        AnthropicCacheControls.read(root, "", breakpoints);
    }

    private static void readToolChoice(JsonNode tc, ChatRequest.Builder b) {
        String type = JsonFields.requireString(tc, "type", "tool_choice.type");
        b.toolChoice(switch (type) {
            case "auto" -> ToolChoice.AUTO;
            case "any" -> ToolChoice.REQUIRED;
            case "none" -> ToolChoice.NONE;
            case "tool" -> new ToolChoice.Named(JsonFields.requireNonEmptyString(tc, "name", "tool_choice.name"));
            default -> throw JsonFields.invalid("tool_choice.type",
                    "`tool_choice.type` must be \"auto\", \"any\", \"tool\" or \"none\", got \"" + type + "\".");
        });
        JsonFields.optBoolean(tc, "disable_parallel_tool_use", "tool_choice.disable_parallel_tool_use")
                .ifPresent(disable -> b.parallelToolCalls(Optional.of(!disable)));
    }

    private static Reasoning reasoning(ObjectNode root, Map<String, JsonNode> passthrough) {
        Optional<Reasoning.Mode> mode = Optional.empty();
        OptionalInt budget = OptionalInt.empty();
        Optional<JsonNode> thinking = JsonFields.opt(root, "thinking");
        if (thinking.isPresent() && thinking.get().isTextual()) {
            // The string switch of spec 2.4, accepted here too because the controls are the same on every format.
            mode = Optional.of(switch (thinking.get().textValue()) {
                case "on" -> Reasoning.Mode.ON;
                case "off" -> Reasoning.Mode.OFF;
                case "auto" -> Reasoning.Mode.AUTO;
                default -> throw JsonFields.invalid("thinking", "`thinking` must be an object, \"on\", \"off\" or \"auto\".");
            });
        } else if (thinking.isPresent()) {
            JsonNode t = JsonFields.requireObject(thinking.get(), "thinking");
            String type = JsonFields.requireString(t, "type", "thinking.type");
            mode = Optional.of(switch (type) {
                case "enabled" -> Reasoning.Mode.ON;
                case "disabled" -> Reasoning.Mode.OFF;
                case "adaptive" -> Reasoning.Mode.AUTO;
                default -> throw JsonFields.invalid("thinking.type",
                        "`thinking.type` must be \"enabled\", \"adaptive\" or \"disabled\", got \"" + type + "\".");
            });
            budget = JsonFields.optInt(t, "budget_tokens", "thinking.budget_tokens", 0, Integer.MAX_VALUE);
            extras(t, Set.of("type", "budget_tokens"), "thinking", passthrough);
        }

        Optional<Reasoning.Effort> effort = Optional.empty();
        Optional<ObjectNode> output = JsonFields.optObject(root, "output_config", "output_config");
        if (output.isPresent()) {
            Optional<String> e = JsonFields.optString(output.get(), "effort", "output_config.effort");
            if (e.isPresent()) {
                effort = Optional.of(Reasoning.Effort.parse(e.get())
                        .filter(level -> level.compareTo(Reasoning.Effort.LOW) >= 0)
                        .orElseThrow(() -> JsonFields.invalid("output_config.effort",
                                "`output_config.effort` must be one of low, medium, high, xhigh, max; got \""
                                        + e.get() + "\".")));
            }
            extras(output.get(), Set.of("effort", "format"), "output_config", passthrough);
        }

        Reasoning.Format format = Reasoning.Format.SEPARATE;
        boolean exclude = false;
        Optional<ObjectNode> presentation = JsonFields.optObject(root, "reasoning", "reasoning");
        if (presentation.isPresent()) {
            format = JsonFields.optString(presentation.get(), "format", "reasoning.format").map(f -> switch (f) {
                case "separate" -> Reasoning.Format.SEPARATE;
                case "inline" -> Reasoning.Format.INLINE;
                default -> throw JsonFields.invalid("reasoning.format",
                        "`reasoning.format` must be \"separate\" or \"inline\", got \"" + f + "\".");
            }).orElse(Reasoning.Format.SEPARATE);
            exclude = JsonFields.optBoolean(presentation.get(), "exclude", "reasoning.exclude").orElse(false);
        }
        return new Reasoning(effort, mode, budget, format, exclude, Optional.empty());
    }

    /** Keeps the fields of {@code node} outside {@code modelled} for an Anthropic upstream. */
    private static void extras(JsonNode node, Set<String> modelled, String key, Map<String, JsonNode> passthrough) {
        ObjectNode rest = Json.object();
        for (Map.Entry<String, JsonNode> f : node.properties()) {
            if (!modelled.contains(f.getKey()) && !f.getValue().isNull()) {
                rest.set(f.getKey(), f.getValue().deepCopy());
            }
        }
        if (!rest.isEmpty()) {
            passthrough.put(key, rest);
        }
    }

    /**
     * {@code output_config.format: {type: json_schema, schema}}, or the structured-outputs beta's spelling
     * {@code output_format} with the same shape (one of the two); Anthropic names no schema, so it is
     * "response".
     */
    private static ResponseFormat responseFormat(ObjectNode root) {
        Optional<ObjectNode> current = JsonFields.optObject(root, "output_config", "output_config")
                .flatMap(o -> JsonFields.optObject(o, "format", "output_config.format"));
        Optional<ObjectNode> beta = JsonFields.optObject(root, "output_format", "output_format");
        if (current.isPresent() && beta.isPresent()) {
            throw JsonFields.invalid("output_format", "`output_format` (the beta spelling) and `output_config.format` "
                    + "say the same thing; send one of them.");
        }
        String at = current.isPresent() ? "output_config.format" : "output_format";
        Optional<ObjectNode> format = current.or(() -> beta);
        if (format.isEmpty()) {
            return ResponseFormat.TEXT;
        }
        String type = JsonFields.requireString(format.get(), "type", at + ".type");
        if (!type.equals("json_schema")) {
            throw JsonFields.invalid(at + ".type", "`" + at + ".type` must be \"json_schema\", got \"" + type + "\".");
        }
        JsonNode schema = JsonFields.requireObject(JsonFields.require(format.get(), "schema", at + ".schema"), at + ".schema");
        return new ResponseFormat.JsonSchema("response", Optional.empty(), schema.deepCopy(), true);
    }
}
