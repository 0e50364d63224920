package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock.Document;
import dev.switchboard.model.ContentBlock.Image;
import dev.switchboard.model.ContentBlock.Opaque;
import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock.ToolResult;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.FreeformTools;
import dev.switchboard.wire.internal.JsonSchemas;
import dev.switchboard.wire.internal.NotCarried;
import dev.switchboard.wire.internal.UserIds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Renders a canonical request for an OpenAI-compatible upstream.
 *
 * <ul>
 *   <li>System blocks become one {@code system} message whose text is the blocks' text joined by a blank
 *       line (a plain string, which every compatible server accepts).</li>
 *   <li>A USER turn becomes one {@code tool} message per tool result, first (they must follow the
 *       assistant's calls), then a {@code user} message with the rest. Tool results carry text only in
 *       this format: their images go into that user message, and {@code isError} is not expressible.</li>
 *   <li>An ASSISTANT turn becomes one message: text, a refusal in {@code refusal}, {@code tool_calls}, and
 *       earlier reasoning as
 *       {@code reasoning_content} when it has no foreign signature (see
 *       {@link OpenAiUpstreamOptions#echoReasoning()}); OpenAI-issued signatures and encrypted reasoning
 *       go back in {@code reasoning_details}.</li>
 *   <li>Schemas in Google's upper-case type spelling are normalised ({@link JsonSchemas#standardTypes});
 *       {@code strict} stays true only for schemas OpenAI's strict mode accepts
 *       ({@link JsonSchemas#qualifiesForStrict}); {@code user} is a short stable id ({@link UserIds}).</li>
 *   <li>Cache markers are dropped: OpenAI-compatible servers cache prefixes automatically.</li>
 *   <li>Blocks this format cannot carry are left out: images or documents held as another provider's
 *       file id, documents by URL (the engine fetches those into bytes first), other formats' opaque
 *       blocks.</li>
 *   <li>Service-only fields ({@code models}, {@code transforms}, {@code reasoning}, {@code thinking},
 *       {@code ignore_defaults}, {@code skill(s)}) are never sent; {@code reasoning_effort} only when set.</li>
 *   <li>Pass-through fields are added last and never override a field rendered from the canonical request:
 *       a chat-completions client's fields that OpenAI defines, its other fields
 *       ({@code repetition_penalty}, {@code min_p}...) only for servers that take extras
 *       ({@link OpenAiUpstreamOptions#extras()}), and a Responses client's {@code prompt_cache_key} and the
 *       other fields that mean the same here ({@link #SHARED_WITH_RESPONSES}).</li>
 * </ul>
 */
final class OpenAiUpstreamRequestWriter {
    private static final String SYSTEM_SEPARATOR = "\n\n";
    /** The Responses format's name in pass-through fields (the formats do not use each other's code). */
    static final String RESPONSES_FORMAT = "responses";
    /**
     * Responses fields with the same name and meaning in chat completions. Not {@code verbosity}: chat
     * completions takes it only for some models, and refuses the request for the others.
     */
    static final Set<String> SHARED_WITH_RESPONSES = Set.of("prompt_cache_key", "prompt_cache_retention",
            "safety_identifier", "service_tier");
    /**
     * The request fields OpenAI's chat-completions API defines (its OpenAPI description), beyond those the
     * canonical request models: a client's field outside this list goes only to servers that take extras.
     */
    static final Set<String> OPENAI_FIELDS = Set.of("audio", "logit_bias", "modalities", "n",
            "prediction", "prompt_cache_key", "prompt_cache_retention", "safety_identifier", "service_tier", "store",
            "verbosity", "web_search_options");

    private OpenAiUpstreamRequestWriter() {
    }

    static ObjectNode write(ChatRequest req, String upstreamModel, boolean stream, OpenAiUpstreamOptions opts) {
        ObjectNode o = Json.object();
        o.put("model", upstreamModel);
        o.set("messages", messages(req, opts));
        req.maxTokens().ifPresent(n -> o.put(opts.maxTokensField().wire(), n));
        sampling(o, req.sampling(), opts);
        if (!req.stop().isEmpty()) {
            ArrayNode stop = o.putArray("stop");
            req.stop().forEach(stop::add);
        }
        if (!req.tools().isEmpty()) {
            ArrayNode tools = o.putArray("tools");
            req.tools().forEach(t -> tools.add(tool(t)));
            toolChoice(o, req.toolChoice());
            req.parallelToolCalls().ifPresent(p -> o.put("parallel_tool_calls", p));
        }
        responseFormat(o, req.responseFormat());
        req.reasoning().effort().ifPresent(e -> o.put("reasoning_effort", e.wire()));
        req.logprobs().ifPresent(top -> {
            o.put("logprobs", true);
            if (top > 0) {
                o.put("top_logprobs", top);
            }
        });
        if (stream) {
            o.put("stream", true);
            // Without it OpenAI sends no usage at all on a stream; billing needs it.
            o.putObject("stream_options").put("include_usage", true);
        }
        req.user().ifPresent(u -> o.put("user", UserIds.shortStable(u)));
        if (!req.metadata().isEmpty()) {
            ObjectNode md = o.putObject("metadata");
            req.metadata().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                    .forEach(e -> md.put(e.getKey(), e.getValue()));
        }
        carried(req, opts).forEach((k, v) -> {
            if (!o.has(k)) {
                o.set(k, v);
            }
        });
        return o;
    }

    /**
     * The pass-through fields this upstream gets: a chat-completions client's own fields that OpenAI's API
     * defines, and any other of its fields only when the server takes extras; of a Responses client, the
     * fields that mean the same in chat completions ({@link #SHARED_WITH_RESPONSES}).
     */
    static Map<String, JsonNode> carried(ChatRequest req, OpenAiUpstreamOptions opts) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        req.passthrough().fields().forEach((k, v) -> {
            if (takes(req.passthrough().format(), k, opts)) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static boolean takes(String format, String field, OpenAiUpstreamOptions opts) {
        return format.equals(OpenAi.FORMAT) && (opts.extras() || OPENAI_FIELDS.contains(field))
                || format.equals(RESPONSES_FORMAT) && SHARED_WITH_RESPONSES.contains(field);
    }

    /** What of {@code req} this writer leaves out (see {@link OpenAi#notCarried}). */
    static List<String> notCarried(ChatRequest req, OpenAiUpstreamOptions opts) {
        List<String> out = new ArrayList<>();
        if (req.passthrough().format().equals(OpenAi.FORMAT)) {
            req.passthrough().fields().keySet().stream().filter(k -> !takes(OpenAi.FORMAT, k, opts)).forEach(out::add);
        }
        out.addAll(NotCarried.foreign(req, OpenAi.FORMAT, (format, field) -> takes(format, field, opts)));
        return out;
    }

    private static void sampling(ObjectNode o, Sampling s, OpenAiUpstreamOptions opts) {
        s.temperature().ifPresent(v -> o.put("temperature", v));
        s.topP().ifPresent(v -> o.put("top_p", v));
        if (opts.sendTopK()) {
            s.topK().ifPresent(v -> o.put("top_k", v));
        }
        s.presencePenalty().ifPresent(v -> o.put("presence_penalty", v));
        s.frequencyPenalty().ifPresent(v -> o.put("frequency_penalty", v));
        s.seed().ifPresent(v -> o.put("seed", v));
    }

    private static ArrayNode messages(ChatRequest req, OpenAiUpstreamOptions opts) {
        ArrayNode out = Json.array();
        List<String> system = new ArrayList<>();
        for (ContentBlock b : req.system()) {
            if (b instanceof Text t) {
                system.add(t.text());
            }
        }
        if (!system.isEmpty()) {
            ObjectNode m = out.addObject();
            m.put("role", "system");
            m.put("content", String.join(SYSTEM_SEPARATOR, system));
        }
        for (Message msg : req.messages()) {
            switch (msg.role()) {
                case USER -> user(out, msg.content());
                case ASSISTANT -> out.add(assistant(msg.content(), opts));
                case SYSTEM -> systemTurn(msg).ifPresent(out::add);
            }
        }
        return out;
    }

    /** A system entry between turns stays a system message in its place. */
    private static Optional<ObjectNode> systemTurn(Message msg) {
        String text = msg.text();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode m = Json.object();
        m.put("role", "system");
        m.put("content", text);
        return Optional.of(m);
    }

    private static void user(ArrayNode out, List<ContentBlock> blocks) {
        List<ObjectNode> parts = new ArrayList<>();
        for (ContentBlock b : blocks) {
            if (b instanceof ToolResult r) {
                ObjectNode m = out.addObject();
                m.put("role", "tool");
                m.put("tool_call_id", r.callId());
                m.put("content", r.text());
                for (ContentBlock inner : r.content()) {
                    if (!(inner instanceof Text)) {
                        part(inner).ifPresent(parts::add);
                    }
                }
            } else {
                part(b).ifPresent(parts::add);
            }
        }
        if (parts.isEmpty()) {
            return;
        }
        ObjectNode m = out.addObject();
        m.put("role", "user");
        if (parts.size() == 1 && parts.get(0).path("type").asText().equals("text")) {
            m.put("content", parts.get(0).path("text").asText());
        } else {
            ArrayNode content = m.putArray("content");
            parts.forEach(content::add);
        }
    }

    /** A user content part, when this format can carry the block. */
    private static Optional<ObjectNode> part(ContentBlock b) {
        ObjectNode p = Json.object();
        switch (b) {
            case Text t -> {
                p.put("type", "text");
                p.put("text", t.text());
            }
            case Image i -> {
                String url = switch (i.source()) {
                    case MediaSource.Url u -> u.url();
                    case MediaSource.Base64 d -> d.dataUrl();
                    default -> null;
                };
                if (url == null) {
                    return Optional.empty();
                }
                p.put("type", "image_url");
                ObjectNode img = p.putObject("image_url");
                img.put("url", url);
                i.detail().ifPresent(d -> img.put("detail", d));
            }
            case Document d -> {
                switch (d.source()) {
                    case MediaSource.Base64 data -> {
                        p.put("type", "file");
                        ObjectNode f = p.putObject("file");
                        f.put("file_data", data.dataUrl());
                        d.title().ifPresent(t -> f.put("filename", t));
                    }
                    case MediaSource.FileRef ref -> {
                        p.put("type", "file");
                        p.putObject("file").put("file_id", ref.fileId());
                    }
                    case MediaSource.PlainText text -> {
                        p.put("type", "text");
                        p.put("text", d.title().map(t -> t + "\n\n").orElse("") + text.text());
                    }
                    case MediaSource.Url u -> {
                        return Optional.empty();
                    }
                }
            }
            case Opaque o -> {
                if (!o.format().equals(OpenAi.FORMAT) || !o.json().isObject()) {
                    return Optional.empty();
                }
                return Optional.of(((ObjectNode) o.json()).deepCopy());
            }
            default -> {
                return Optional.empty();
            }
        }
        return Optional.of(p);
    }

    private static ObjectNode assistant(List<ContentBlock> blocks, OpenAiUpstreamOptions opts) {
        ObjectNode m = Json.object();
        m.put("role", "assistant");
        StringBuilder text = new StringBuilder();
        boolean hasText = false;
        StringBuilder refusal = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<ContentBlock> echoed = new ArrayList<>();
        boolean signed = false;
        ArrayNode calls = Json.array();
        for (ContentBlock b : blocks) {
            switch (b) {
                case Text t -> {
                    text.append(t.text());
                    hasText = true;
                }
                case ContentBlock.Refusal r -> refusal.append(r.text());
                case Thinking t -> {
                    boolean foreign = t.signature().isPresent() && !t.signature().get().isFrom(OpenAi.FORMAT);
                    if (!foreign && opts.echoReasoning()) {
                        reasoning.append(t.text());
                        echoed.add(t);
                        signed |= t.signature().isPresent();
                    }
                }
                case RedactedThinking r -> {
                    if (r.origin().equals(OpenAi.FORMAT) && opts.echoReasoning()) {
                        echoed.add(r);
                        signed = true;
                    }
                }
                case ToolCall c -> calls.add(OpenAiClientResponseWriter.toolCall(c, opts.echoGeminiThoughtSignatures()));
                default -> {
                    // Images, documents, opaque blocks have no place in an assistant message of this format.
                }
            }
        }
        if (hasText || calls.isEmpty()) {
            m.put("content", text.toString());
        } else {
            m.putNull("content");
        }
        if (!refusal.isEmpty()) {
            m.put("refusal", refusal.toString()); // the format's own field: replayed as a refusal, not as words
        }
        if (!reasoning.isEmpty()) {
            m.put("reasoning_content", reasoning.toString());
        }
        if (signed) {
            m.set("reasoning_details", OpenAiReasoningDetails.write(echoed, false));
        }
        if (!calls.isEmpty()) {
            m.set("tool_calls", calls);
        }
        return m;
    }

    private static ObjectNode tool(ToolSpec t) {
        ObjectNode tool = Json.object();
        tool.put("type", "function");
        ObjectNode fn = tool.putObject("function");
        fn.put("name", t.name());
        FreeformTools.functionDescription(t).ifPresent(d -> fn.put("description", d));
        JsonNode parameters = JsonSchemas.standardTypes(t.parameters());
        fn.set("parameters", parameters);
        t.strict().ifPresent(s -> fn.put("strict", s && JsonSchemas.qualifiesForStrict(parameters)));
        return tool;
    }

    /** {@code auto} is the default and is left out, so a request without tool_choice stays without it. */
    private static void toolChoice(ObjectNode o, ToolChoice choice) {
        switch (choice) {
            case ToolChoice.Auto a -> { }
            case ToolChoice.None n -> o.put("tool_choice", "none");
            case ToolChoice.Required r -> o.put("tool_choice", "required");
            case ToolChoice.Named n -> {
                ObjectNode tc = o.putObject("tool_choice");
                tc.put("type", "function");
                tc.putObject("function").put("name", n.name());
            }
        }
    }

    private static void responseFormat(ObjectNode o, ResponseFormat rf) {
        switch (rf) {
            case ResponseFormat.Text t -> { }
            case ResponseFormat.JsonObject j -> o.putObject("response_format").put("type", "json_object");
            case ResponseFormat.JsonSchema s -> {
                ObjectNode f = o.putObject("response_format");
                f.put("type", "json_schema");
                ObjectNode js = f.putObject("json_schema");
                js.put("name", s.name());
                s.description().ifPresent(d -> js.put("description", d));
                JsonNode schema = JsonSchemas.standardTypes(s.schema());
                js.set("schema", schema);
                js.put("strict", s.strict() && JsonSchemas.qualifiesForStrict(schema));
            }
        }
    }
}
