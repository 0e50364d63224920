package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock.Document;
import dev.switchboard.model.ContentBlock.Image;
import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock.ToolResult;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.FreeformTools;
import dev.switchboard.wire.internal.JsonSchemas;
import dev.switchboard.wire.internal.Media;
import dev.switchboard.wire.internal.NotCarried;
import dev.switchboard.wire.internal.UserIds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Renders a canonical request for an upstream speaking the Responses format ({@code POST /responses}),
 * statelessly: {@code store: false}, every turn sent again as input items, and, for reasoning models,
 * {@code include: ["reasoning.encrypted_content"]} so the model's reasoning can go back on the next turn
 * (and {@code message.output_text.logprobs}, with {@code top_logprobs}, when the caller asked for logprobs).
 *
 * <ul>
 *   <li>System blocks become {@code instructions} (their texts joined by a blank line); a system entry
 *       between turns stays a {@code system} message in its place.</li>
 *   <li>A USER turn gives one {@code function_call_output} per tool result (a
 *       {@code custom_tool_call_output} for a call of a custom tool), first, then one user
 *       {@code message} with the rest ({@code input_text}, {@code input_image}, {@code input_file}).</li>
 *   <li>An ASSISTANT turn gives its items in block order: a {@code reasoning} item for each trace whose
 *       signature this format issued (its {@code encrypted_content}, its text as the summary), an
 *       assistant {@code message} per run of text (an empty run is none), an assistant {@code message} with
 *       a {@code refusal} part per refusal, a {@code function_call} per call (the canonical id as
 *       {@code call_id}), or a {@code custom_tool_call} with its free-text {@code input} when it calls a
 *       free-text tool of the request. Traces signed by other providers or not signed at all are not sent: the
 *       upstream can read only its own encrypted reasoning, and a reasoning item without it is refused
 *       when nothing is stored. A reasoning item with nothing after it in its turn is left out too (the
 *       API wants each reasoning item followed by the item it led to).</li>
 *   <li>No item carries an {@code id}: ids refer to stored items, and nothing is stored.</li>
 *   <li>Free-text tools ({@link ToolSpec#freeform()}) are the format's {@code custom} tools, their
 *       {@code format} (text or grammar) as the client sent it.</li>
 *   <li>Function tools are flat and always say {@code strict} (the format's default is {@code true},
 *       which a schema not written for strict mode fails); it is true only when the caller asked for it and
 *       the schema qualifies ({@link JsonSchemas#qualifiesForStrict}), and schemas in Google's upper-case
 *       type spelling are normalised. {@code user} is a short stable id ({@link UserIds}).</li>
 *   <li>{@code text.format} carries JSON modes; a {@code json_object} request whose input never says
 *       "JSON" gets a line saying so in {@code instructions}, which OpenAI requires.</li>
 *   <li>{@code max_output_tokens} is at least {@value #MIN_OUTPUT_TOKENS}, the API's minimum.</li>
 *   <li>Stop sequences have no field in this format; the gateway applies them to the answer
 *       ({@link ResponsesStopSequences}).</li>
 *   <li>Pass-through fields of this format are sent as they came (an object's extra fields, such as
 *       {@code reasoning.context}, join the object rendered from the canonical request); of the
 *       chat-completions format only
 *       those that mean the same here ({@link #SHARED_WITH_CHAT}), and {@code verbosity} as
 *       {@code text.verbosity}. They never override a field rendered from the canonical request, and a
 *       model that takes no reasoning controls gets no {@code reasoning} fields.</li>
 * </ul>
 */
final class ResponsesUpstreamRequestWriter {
    /** OpenAI refuses a smaller {@code max_output_tokens} ("Expected a value >= 16"). */
    static final int MIN_OUTPUT_TOKENS = 16;
    /** Chat-completions fields with the same name and meaning in the Responses format. */
    static final Set<String> SHARED_WITH_CHAT = Set.of("prompt_cache_key", "prompt_cache_retention",
            "safety_identifier", "service_tier");
    /** Fields only the gateway decides: statelessness and streaming are not the caller's to change here. */
    static final Set<String> NEVER_PASSED = Set.of("store", "include", "stream", "previous_response_id", "background",
            "conversation", "input", "instructions", "verbosity");
    static final String INCLUDE_REASONING = "reasoning.encrypted_content";
    static final String JSON_HINT = "Respond in JSON.";
    /** The chat-completions format's name in pass-through fields (the formats do not use each other's code). */
    static final String CHAT_FORMAT = "openai";
    private static final String SYSTEM_SEPARATOR = "\n\n";

    private ResponsesUpstreamRequestWriter() {
    }

    static ObjectNode write(ChatRequest req, String upstreamModel, boolean stream, ResponsesUpstreamOptions opts) {
        ObjectNode o = Json.object();
        o.put("model", upstreamModel);
        instructions(req).ifPresent(i -> o.put("instructions", i));
        Set<String> freeform = req.tools().stream().filter(t -> t.freeform().isPresent()).map(ToolSpec::name)
                .collect(Collectors.toSet());
        o.set("input", input(req.messages(), opts, freeform));
        if (!req.tools().isEmpty()) {
            ArrayNode tools = o.putArray("tools");
            req.tools().forEach(t -> tools.add(tool(t)));
            toolChoice(o, req.toolChoice(), freeform);
            req.parallelToolCalls().ifPresent(p -> o.put("parallel_tool_calls", p));
        }
        text(o, req);
        if (opts.reasoning()) {
            reasoning(req.reasoning()).ifPresent(r -> o.set("reasoning", r));
            o.putArray("include").add(INCLUDE_REASONING);
        }
        req.logprobs().ifPresent(top -> {
            (o.has("include") ? (ArrayNode) o.get("include") : o.putArray("include"))
                    .add(ResponsesRequestReader.LOGPROBS_INCLUDE);
            if (top > 0) {
                o.put("top_logprobs", top);
            }
        });
        req.maxTokens().ifPresent(n -> o.put("max_output_tokens", Math.max(MIN_OUTPUT_TOKENS, n)));
        if (opts.temperature()) {
            req.sampling().temperature().ifPresent(v -> o.put("temperature", v));
        }
        if (opts.topP()) {
            req.sampling().topP().ifPresent(v -> o.put("top_p", v));
        }
        o.put("store", false);
        if (stream) {
            o.put("stream", true);
        }
        req.user().ifPresent(u -> o.put("user", UserIds.shortStable(u)));
        if (!req.metadata().isEmpty()) {
            ObjectNode md = o.putObject("metadata");
            req.metadata().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> md.put(e.getKey(), e.getValue()));
        }
        passthrough(o, req, opts.reasoning());
        return o;
    }

    private static Optional<String> instructions(ChatRequest req) {
        List<String> texts = new ArrayList<>();
        for (ContentBlock b : req.system()) {
            if (b instanceof Text t && !t.text().isEmpty()) {
                texts.add(t.text());
            }
        }
        if (req.responseFormat() instanceof ResponseFormat.JsonObject && !mentionsJson(req, texts)) {
            texts.add(JSON_HINT);
        }
        return texts.isEmpty() ? Optional.empty() : Optional.of(String.join(SYSTEM_SEPARATOR, texts));
    }

    /** OpenAI's rule for {@code json_object}: the word must appear in the input messages or the instructions. */
    private static boolean mentionsJson(ChatRequest req, List<String> system) {
        if (system.stream().anyMatch(ResponsesUpstreamRequestWriter::saysJson)) {
            return true;
        }
        for (Message m : req.messages()) {
            for (ContentBlock b : m.content()) {
                if (b instanceof Text t && saysJson(t.text())
                        || b instanceof ToolResult r && saysJson(r.text())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean saysJson(String text) {
        return text.toLowerCase(Locale.ROOT).contains("json");
    }

    /**
     * The conversation as input items. Calls of the free-text tools named in {@code freeform} (and their
     * results) are custom tool items, collected in {@code customCalls} as they appear.
     */
    private static ArrayNode input(List<Message> messages, ResponsesUpstreamOptions opts, Set<String> freeform) {
        ArrayNode items = Json.array();
        Set<String> customCalls = new HashSet<>();
        for (Message m : messages) {
            switch (m.role()) {
                case USER -> user(items, m.content(), customCalls);
                case ASSISTANT -> assistant(items, m.content(), opts, freeform, customCalls);
                case SYSTEM -> systemTurn(items, m);
            }
        }
        return items;
    }

    /** A system entry between turns stays a system message in its place (its position matters to the model). */
    private static void systemTurn(ArrayNode items, Message m) {
        String text = m.text();
        if (!text.isEmpty()) {
            items.addObject().put("type", "message").put("role", "system").put("content", text);
        }
    }

    private static void user(ArrayNode items, List<ContentBlock> blocks, Set<String> customCalls) {
        ArrayNode parts = Json.array();
        for (ContentBlock b : blocks) {
            if (b instanceof ToolResult r) {
                items.add(toolOutput(r, customCalls.contains(r.callId()) ? "custom_tool_call_output" : "function_call_output"));
            } else {
                part(b).ifPresent(parts::add);
            }
        }
        if (!parts.isEmpty()) {
            ObjectNode message = items.addObject().put("type", "message").put("role", "user");
            message.set("content", parts);
        }
    }

    /** A tool's result as an output item of {@code type} (function or custom: the same fields). */
    private static ObjectNode toolOutput(ToolResult r, String type) {
        ObjectNode item = Json.object().put("type", type).put("call_id", r.callId());
        boolean textOnly = r.content().stream().allMatch(b -> b instanceof Text);
        if (textOnly) {
            item.put("output", r.text());
        } else {
            ArrayNode parts = item.putArray("output");
            r.content().forEach(b -> part(b).ifPresent(parts::add));
        }
        return item;
    }

    /** An input part, when this format can carry the block. */
    private static Optional<ObjectNode> part(ContentBlock b) {
        return switch (b) {
            case Text t -> Optional.of(inputText(t.text()));
            case Image i -> imageUrl(i.source()).map(url -> Json.object().put("type", "input_image")
                    .put("image_url", url).put("detail", i.detail().orElse("auto")));
            case Document d -> document(d);
            case ContentBlock.Opaque o when Media.inputAudio(o).isPresent() -> throw Media.audioRefused("Responses").toException();
            default -> Optional.empty();
        };
    }

    private static ObjectNode inputText(String text) {
        return Json.object().put("type", "input_text").put("text", text);
    }

    private static Optional<String> imageUrl(MediaSource source) {
        return switch (source) {
            case MediaSource.Url u -> Optional.of(u.url());
            case MediaSource.Base64 d -> Optional.of(d.dataUrl());
            default -> Optional.empty(); // another provider's file id, or text
        };
    }

    private static Optional<ObjectNode> document(Document d) {
        ObjectNode p = Json.object().put("type", "input_file");
        switch (d.source()) {
            case MediaSource.Base64 data -> p.put("filename", d.title().orElse("document" + extension(data.mediaType())))
                    .put("file_data", data.dataUrl());
            case MediaSource.FileRef ref -> p.put("file_id", ref.fileId());
            case MediaSource.Url u -> p.put("file_url", u.url());
            case MediaSource.PlainText text -> {
                return Optional.of(inputText(d.title().map(t -> t + "\n\n").orElse("") + text.text()));
            }
        }
        return Optional.of(p);
    }

    /** OpenAI tells file types apart by the file name; a name without an extension is refused for PDFs. */
    private static String extension(String mediaType) {
        return switch (mediaType) {
            case "application/pdf" -> ".pdf";
            case "text/plain" -> ".txt";
            default -> "";
        };
    }

    private static void assistant(ArrayNode items, List<ContentBlock> blocks, ResponsesUpstreamOptions opts,
                                  Set<String> freeform, Set<String> customCalls) {
        List<ObjectNode> reasoning = new ArrayList<>(); // sent only once the item they led to follows
        StringBuilder text = new StringBuilder();
        for (ContentBlock b : blocks) {
            if (b instanceof Text t) {
                text.append(t.text());
                continue;
            }
            message(text, reasoning, items);
            switch (b) {
                case Thinking t when opts.reasoning() && ownSignature(t) ->
                        reasoning.add(reasoningItem(t.text(), t.signature().orElseThrow().value()));
                case RedactedThinking r when opts.reasoning() && r.origin().equals(Responses.FORMAT) ->
                        reasoning.add(reasoningItem("", r.data()));
                case ContentBlock.Refusal r -> {
                    // The format's own refusal part, so the model sees it refused rather than said so.
                    flush(reasoning, items);
                    ObjectNode refusal = items.addObject().put("type", "message").put("role", "assistant");
                    refusal.putArray("content").addObject().put("type", "refusal").put("refusal", r.text());
                }
                case ToolCall c when freeform.contains(c.name()) -> {
                    flush(reasoning, items);
                    customCalls.add(c.id());
                    items.addObject().put("type", "custom_tool_call").put("call_id", c.id()).put("name", c.name())
                            .put("input", FreeformTools.inputOf(c.argumentsJson()));
                }
                case ToolCall c -> {
                    flush(reasoning, items);
                    items.addObject().put("type", "function_call").put("call_id", c.id()).put("name", c.name())
                            .put("arguments", c.argumentsJson());
                }
                default -> {
                    // Foreign or unsigned traces, images and other formats' blocks: nothing this upstream can take.
                }
            }
        }
        message(text, reasoning, items);
    }

    /** The run of text so far as one assistant message, after the reasoning that led to it; none when empty. */
    private static void message(StringBuilder text, List<ObjectNode> reasoning, ArrayNode items) {
        if (!text.isEmpty()) {
            flush(reasoning, items);
            items.add(assistantMessage(text.toString()));
            text.setLength(0);
        }
    }

    private static void flush(List<ObjectNode> reasoning, ArrayNode items) {
        reasoning.forEach(items::add);
        reasoning.clear();
    }

    private static boolean ownSignature(Thinking t) {
        return t.signature().filter(s -> s.isFrom(Responses.FORMAT) && !s.value().isEmpty()).isPresent();
    }

    private static ObjectNode reasoningItem(String summary, String encrypted) {
        ObjectNode item = Json.object().put("type", "reasoning");
        ArrayNode parts = item.putArray("summary");
        if (!summary.isEmpty()) {
            parts.add(ResponsesItemWriter.summaryText(summary));
        }
        item.put("encrypted_content", encrypted);
        return item;
    }

    /** The easy form (string content), which every Responses server takes for earlier assistant turns. */
    private static ObjectNode assistantMessage(String text) {
        return Json.object().put("type", "message").put("role", "assistant").put("content", text);
    }

    private static ObjectNode tool(ToolSpec t) {
        if (t.freeform().isPresent()) {
            return customTool(t, t.freeform().get());
        }
        ObjectNode tool = Json.object().put("type", "function").put("name", t.name());
        t.description().ifPresent(d -> tool.put("description", d));
        JsonNode parameters = JsonSchemas.standardTypes(t.parameters());
        tool.set("parameters", parameters);
        tool.put("strict", t.strict().orElse(false) && JsonSchemas.qualifiesForStrict(parameters));
        return tool;
    }

    /** A free-text tool as the format's own {@code custom} tool, its {@code format} as the client sent it. */
    private static ObjectNode customTool(ToolSpec t, ToolSpec.Freeform freeform) {
        ObjectNode tool = Json.object().put("type", "custom").put("name", t.name());
        t.description().ifPresent(d -> tool.put("description", d));
        freeform.format().ifPresent(f -> {
            ObjectNode format = tool.putObject("format");
            switch (f) {
                case ToolSpec.Freeform.Format.Text text -> format.put("type", "text");
                case ToolSpec.Freeform.Format.Grammar g -> format.put("type", "grammar").put("syntax", g.syntax())
                        .put("definition", g.definition());
            }
        });
        return tool;
    }

    /** {@code auto} is the default and is left out; a named free-text tool is chosen as a custom tool. */
    private static void toolChoice(ObjectNode o, ToolChoice choice, Set<String> freeform) {
        switch (choice) {
            case ToolChoice.Auto a -> { }
            case ToolChoice.None n -> o.put("tool_choice", "none");
            case ToolChoice.Required r -> o.put("tool_choice", "required");
            case ToolChoice.Named n -> o.putObject("tool_choice")
                    .put("type", freeform.contains(n.name()) ? "custom" : "function").put("name", n.name());
        }
    }

    private static void text(ObjectNode o, ChatRequest req) {
        Optional<JsonNode> verbosity = Optional.ofNullable(req.passthrough().forFormat(Responses.FORMAT).get("verbosity"))
                .or(() -> Optional.ofNullable(req.passthrough().forFormat(CHAT_FORMAT).get("verbosity")));
        ObjectNode format = switch (req.responseFormat()) {
            case ResponseFormat.Text t -> null;
            case ResponseFormat.JsonObject j -> Json.object().put("type", "json_object");
            case ResponseFormat.JsonSchema s -> {
                ObjectNode f = Json.object().put("type", "json_schema").put("name", s.name());
                s.description().ifPresent(d -> f.put("description", d));
                JsonNode schema = JsonSchemas.standardTypes(s.schema());
                f.set("schema", schema);
                f.put("strict", s.strict() && JsonSchemas.qualifiesForStrict(schema));
                yield f;
            }
        };
        if (format == null && verbosity.isEmpty()) {
            return;
        }
        ObjectNode text = o.putObject("text");
        if (format != null) {
            text.set("format", format);
        }
        verbosity.ifPresent(v -> text.set("verbosity", v));
    }

    /**
     * The reasoning controls: the effort (already clamped to the model's levels; the switch turned off as
     * {@code none}) and a summary. A summary is asked for when the caller asked for
     * reasoning and did not exclude it (the caller's own {@code summary} when its format has one): it is
     * the only text of the trace this format shows.
     */
    private static Optional<ObjectNode> reasoning(Reasoning r) {
        ObjectNode o = Json.object();
        Optional<String> effort = r.effort().map(Reasoning.Effort::wire)
                .or(() -> r.mode().filter(m -> m == Reasoning.Mode.OFF).map(m -> "none"));
        effort.ifPresent(e -> o.put("effort", e));
        boolean off = effort.filter(e -> e.equals("none")).isPresent();
        Optional<String> summary = r.summary().or(() -> r.requested() && !r.exclude() && !off
                ? Optional.of("auto") : Optional.empty());
        summary.ifPresent(s -> o.put("summary", s));
        return o.isEmpty() ? Optional.empty() : Optional.of(o);
    }

    static List<String> notCarried(ChatRequest req) {
        return NotCarried.foreign(req, Responses.FORMAT,
                (format, field) -> format.equals(CHAT_FORMAT) && (SHARED_WITH_CHAT.contains(field) || field.equals("verbosity")));
    }

    private static void passthrough(ObjectNode o, ChatRequest req, boolean reasoningModel) {
        req.passthrough().forFormat(Responses.FORMAT).forEach((k, v) -> {
            // a model sent no reasoning controls (one that takes none) gets no reasoning fields either
            if (NEVER_PASSED.contains(k) || k.equals("reasoning") && !reasoningModel) {
                return;
            }
            if (!o.has(k)) {
                o.set(k, v);
            } else if (o.get(k) instanceof ObjectNode rendered && v instanceof ObjectNode extras) {
                // The parts of an object the canonical model has no word for (reasoning.context, text.verbosity).
                extras.properties().forEach(e -> {
                    if (!rendered.has(e.getKey())) {
                        rendered.set(e.getKey(), e.getValue());
                    }
                });
            }
        });
        req.passthrough().forFormat(CHAT_FORMAT).forEach((k, v) -> {
            if (SHARED_WITH_CHAT.contains(k) && !o.has(k)) {
                o.set(k, v);
            }
        });
    }
}
