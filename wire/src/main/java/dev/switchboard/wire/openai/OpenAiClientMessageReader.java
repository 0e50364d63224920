package dev.switchboard.wire.openai;

import static dev.switchboard.wire.internal.JsonFields.describe;
import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.opt;
import static dev.switchboard.wire.internal.JsonFields.optArray;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.path;
import static dev.switchboard.wire.internal.JsonFields.require;
import static dev.switchboard.wire.internal.JsonFields.requireNonEmptyString;
import static dev.switchboard.wire.internal.JsonFields.requireObject;
import static dev.switchboard.wire.internal.JsonFields.requireText;
import static dev.switchboard.wire.internal.JsonFields.wrongType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.ContentBlock.Document;
import dev.switchboard.model.ContentBlock.Image;
import dev.switchboard.model.ContentBlock.Opaque;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock.ToolResult;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.InlineMedia;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Turns the chat-completions {@code messages} array into canonical system blocks and turns.
 *
 * <ul>
 *   <li>{@code system} and {@code developer} messages, wherever they stand, become system blocks in
 *       order (the canonical model keeps system instructions apart from the turns).</li>
 *   <li>{@code tool} messages become {@link ToolResult} blocks of one USER turn per run of consecutive
 *       tool messages, named from the assistant {@code tool_calls} they answer (formats such as Gemini
 *       need the name); a {@code user} message right after them joins that turn behind the results,
 *       which is where the messages format wants them.</li>
 *   <li>An assistant turn reads as: reasoning blocks, then text, then tool calls, the order in which
 *       providers produce them.</li>
 *   <li>Parts and messages may carry {@code cache_control}; on a message it marks the message's last
 *       block.</li>
 * </ul>
 * The optional {@code name} of a message has no place in the canonical model and is ignored.
 */
final class OpenAiClientMessageReader {
    private static final Set<String> DETAILS = Set.of("auto", "low", "high");

    /** The system blocks and turns read from {@code messages}. */
    record Result(List<ContentBlock> system, List<Message> messages) {
    }

    private final List<ContentBlock> system = new ArrayList<>();
    private final List<Message> turns = new ArrayList<>();
    private final Map<String, String> callNames = new HashMap<>();
    /** True while the last turn is a USER turn opened by tool messages that a user message may still join. */
    private boolean lastTurnIsToolResults;

    private OpenAiClientMessageReader() {
    }

    static Result read(ArrayNode messages) {
        OpenAiClientMessageReader r = new OpenAiClientMessageReader();
        for (int i = 0; i < messages.size(); i++) {
            r.message(requireObject(messages.get(i), index("messages", i)), index("messages", i));
        }
        return new Result(r.system, r.turns);
    }

    private void message(ObjectNode m, String p) {
        String role = requireText(require(m, "role", path(p, "role")), path(p, "role"));
        switch (role) {
            case "system", "developer" -> system.addAll(withMessageCache(m, p, systemContent(m, p)));
            case "user" -> user(m, p);
            case "assistant" -> assistant(m, p);
            case "tool" -> tool(m, p);
            case "function" -> throw invalid(path(p, "role"), "The legacy `function` role is not supported; answer "
                    + "tool calls with `{\"role\": \"tool\", \"tool_call_id\": ..., \"content\": ...}` messages.");
            default -> throw invalid(path(p, "role"), "`" + path(p, "role")
                    + "` must be one of system, developer, user, assistant, tool; got \"" + role + "\".");
        }
    }

    private void user(ObjectNode m, String p) {
        List<ContentBlock> blocks = withMessageCache(m, p, userContent(require(m, "content", path(p, "content")),
                path(p, "content")));
        addUserBlocks(blocks);
        lastTurnIsToolResults = false;
    }

    private void tool(ObjectNode m, String p) {
        String callId = requireNonEmptyString(m, "tool_call_id", path(p, "tool_call_id"));
        if (!callNames.containsKey(callId)) {
            throw invalid(path(p, "tool_call_id"), "No assistant tool call with id \"" + callId + "\" comes before this "
                    + "tool message: a tool result must answer a call of an earlier assistant message.");
        }
        List<ContentBlock> content = opt(m, "content").isEmpty() ? List.of()
                : textContent(m.get("content"), path(p, "content"), "tool");
        Optional<String> name = Optional.of(callNames.get(callId));
        addUserBlocks(List.of(new ToolResult(callId, name, content, false, OpenAiCacheControls.read(m, p))));
        lastTurnIsToolResults = true;
    }

    /** Appends to the USER turn of tool results just read, or opens a new USER turn. */
    private void addUserBlocks(List<ContentBlock> blocks) {
        if (lastTurnIsToolResults) {
            List<ContentBlock> merged = new ArrayList<>(turns.remove(turns.size() - 1).content());
            merged.addAll(blocks);
            turns.add(new Message(Role.USER, merged));
        } else {
            turns.add(new Message(Role.USER, blocks));
        }
    }

    private void assistant(ObjectNode m, String p) {
        if (opt(m, "function_call").isPresent()) {
            throw invalid(path(p, "function_call"), "Legacy `function_call` on assistant messages is not supported; "
                    + "use `tool_calls`.");
        }
        List<ContentBlock> blocks = new ArrayList<>(reasoning(m, p));
        blocks.addAll(assistantText(m, p));
        Optional<ArrayNode> calls = optArray(m, "tool_calls", path(p, "tool_calls"));
        if (calls.isPresent()) {
            for (int i = 0; i < calls.get().size(); i++) {
                ToolCall call = toolCall(calls.get().get(i), index(path(p, "tool_calls"), i));
                callNames.put(call.id(), call.name());
                blocks.add(call);
            }
        }
        turns.add(new Message(Role.ASSISTANT, withMessageCache(m, p, dropEmptyText(blocks))));
        lastTurnIsToolResults = false;
    }

    /**
     * Reasoning of an earlier assistant turn. {@code reasoning_details} (on the message, else our copy on
     * a tool call) is the richer source, having the signatures, and wins; when its entries carry no text
     * (a streaming client accumulated only the signature entries) the plain {@code reasoning_content} or
     * {@code reasoning} text fills the first block.
     */
    private static List<ContentBlock> reasoning(ObjectNode m, String p) {
        Optional<String> plain = optString(m, "reasoning_content", path(p, "reasoning_content"))
                .or(() -> optString(m, "reasoning", path(p, "reasoning")))
                .filter(s -> !s.isEmpty());
        Optional<ArrayNode> details = optArray(m, "reasoning_details", path(p, "reasoning_details"))
                .filter(d -> !d.isEmpty());
        String detailsPath = path(p, "reasoning_details");
        if (details.isEmpty()) {
            // The copy we put on the first tool call, for clients that drop unknown message fields.
            details = OpenAiReasoningDetails.fromToolCalls(m);
            detailsPath = path(p, "tool_calls[].extra_content." + OpenAiReasoningDetails.EXTENSION + ".reasoning_details");
        }
        if (details.isPresent()) {
            return OpenAiReasoningDetails.withPlainText(
                    OpenAiReasoningDetails.read(details.get(), detailsPath, Optional.empty()), plain.orElse(""));
        }
        return plain.<List<ContentBlock>>map(s -> List.of(Thinking.of(s))).orElse(List.of());
    }

    /**
     * Text of an assistant turn: content string or text/refusal parts, then the {@code refusal} field (when no
     * refusal part said it already); refusals stay {@link ContentBlock.Refusal} blocks, so they go upstream
     * as refusals where the target format has them.
     */
    private static List<ContentBlock> assistantText(ObjectNode m, String p) {
        String cp = path(p, "content");
        Optional<JsonNode> content = opt(m, "content");
        List<ContentBlock> out = new ArrayList<>();
        if (content.isPresent()) {
            JsonNode c = content.get();
            if (c.isTextual()) {
                out.add(Text.of(c.textValue()));
            } else if (c.isArray()) {
                for (int i = 0; i < c.size(); i++) {
                    String pp = index(cp, i);
                    ObjectNode part = requireObject(c.get(i), pp);
                    String type = requireText(require(part, "type", path(pp, "type")), path(pp, "type"));
                    switch (type) {
                        case "text" -> out.add(new Text(requireText(require(part, "text", path(pp, "text")),
                                path(pp, "text")), OpenAiCacheControls.read(part, pp), Optional.empty()));
                        case "refusal" -> out.add(new ContentBlock.Refusal(requireText(
                                require(part, "refusal", path(pp, "refusal")), path(pp, "refusal"))));
                        default -> throw invalid(path(pp, "type"), "`" + path(pp, "type")
                                + "` must be \"text\" or \"refusal\" in an assistant message, got \"" + type + "\".");
                    }
                }
            } else {
                throw wrongType(cp, "a string, an array of content parts or null", c);
            }
        }
        boolean refusalPart = out.stream().anyMatch(b -> b instanceof ContentBlock.Refusal);
        optString(m, "refusal", path(p, "refusal")).filter(r -> !r.isEmpty() && !refusalPart)
                .ifPresent(r -> out.add(new ContentBlock.Refusal(r)));
        return out;
    }

    /**
     * Empty strings are how many SDKs spell "no text" next to tool calls or reasoning, and other formats
     * reject empty text blocks; an assistant turn with nothing else keeps its empty text.
     */
    private static List<ContentBlock> dropEmptyText(List<ContentBlock> blocks) {
        List<ContentBlock> nonEmpty = blocks.stream().filter(b -> !(b instanceof Text t && t.text().isEmpty())).toList();
        return nonEmpty.isEmpty() ? blocks : nonEmpty;
    }

    private static ToolCall toolCall(JsonNode node, String p) {
        ObjectNode call = requireObject(node, p);
        String type = optString(call, "type", path(p, "type")).orElse("function");
        if (!type.equals("function")) {
            throw invalid(path(p, "type"), "`" + path(p, "type") + "` must be \"function\", got \"" + type + "\".");
        }
        String id = requireNonEmptyString(call, "id", path(p, "id"));
        String fp = path(p, "function");
        ObjectNode function = requireObject(require(call, "function", fp), fp);
        String name = requireNonEmptyString(function, "name", path(fp, "name"));
        String arguments = opt(function, "arguments").map(a -> {
            if (a.isTextual()) {
                return a.textValue();
            }
            if (a.isObject()) {
                // Some clients send the object itself; the wire contract is its JSON text.
                return Json.write(a);
            }
            throw wrongType(path(fp, "arguments"), "a JSON-encoded string", a);
        }).orElse("");
        Optional<Signature> signature = OpenAiThoughtSignatures.read(call, p);
        return new ToolCall(id, name, arguments, signature);
    }

    private static List<ContentBlock> systemContent(ObjectNode m, String p) {
        return textContent(require(m, "content", path(p, "content")), path(p, "content"), "system");
    }

    /** A string, or an array of text parts (system, developer and tool messages accept nothing else). */
    private static List<ContentBlock> textContent(JsonNode c, String cp, String role) {
        return content(c, cp, "a string or an array of text parts", (node, pp) -> {
            ObjectNode part = requireObject(node, pp);
            String type = requireText(require(part, "type", path(pp, "type")), path(pp, "type"));
            if (!type.equals("text")) {
                throw invalid(path(pp, "type"), "`" + path(pp, "type") + "` must be \"text\" in a " + role
                        + " message, got \"" + type + "\".");
            }
            return new Text(requireText(require(part, "text", path(pp, "text")), path(pp, "text")),
                    OpenAiCacheControls.read(part, pp), Optional.empty());
        });
    }

    private static List<ContentBlock> userContent(JsonNode c, String cp) {
        return content(c, cp, "a string or an array of content parts", OpenAiClientMessageReader::userPart);
    }

    /** A message's {@code content}: a string (one text block), or an array whose parts {@code part} reads. */
    private static List<ContentBlock> content(JsonNode c, String cp, String expected,
                                              BiFunction<JsonNode, String, ContentBlock> part) {
        if (c.isTextual()) {
            return List.of(Text.of(c.textValue()));
        }
        if (!c.isArray()) {
            throw wrongType(cp, expected, c);
        }
        List<ContentBlock> out = new ArrayList<>(c.size());
        for (int i = 0; i < c.size(); i++) {
            out.add(part.apply(c.get(i), index(cp, i)));
        }
        return out;
    }

    private static ContentBlock userPart(JsonNode node, String pp) {
        ObjectNode part = requireObject(node, pp);
        String type = requireText(require(part, "type", path(pp, "type")), path(pp, "type"));
        Optional<CacheMarker> cache = OpenAiCacheControls.read(part, pp);
        return switch (type) {
            case "text" -> new Text(requireText(require(part, "text", path(pp, "text")), path(pp, "text")), cache,
                    Optional.empty());
            case "image_url" -> image(part, pp, cache);
            case "file" -> file(part, pp, cache);
            // Audio and future part kinds have no canonical block; only an OpenAI-format upstream can use them.
            default -> new Opaque(OpenAi.FORMAT, part);
        };
    }

    private static Image image(ObjectNode part, String pp, Optional<CacheMarker> cache) {
        String ip = path(pp, "image_url");
        JsonNode img = require(part, "image_url", ip);
        String url;
        Optional<String> detail = Optional.empty();
        if (img.isTextual()) {
            url = img.textValue();
        } else if (img.isObject()) {
            url = requireNonEmptyString(img, "url", path(ip, "url"));
            detail = optString(img, "detail", path(ip, "detail"));
            if (detail.isPresent() && !DETAILS.contains(detail.get())) {
                throw invalid(path(ip, "detail"), "`" + path(ip, "detail") + "` must be one of auto, low, high; got \""
                        + detail.get() + "\".");
            }
        } else {
            throw wrongType(ip, "an object {url, detail?}", img);
        }
        if (url.startsWith("data:")) {
            return new Image(InlineMedia.imageDataUrl(url, img.isObject() ? path(ip, "url") : ip), detail, cache);
        }
        return new Image(MediaSource.fromUrl(url), detail, cache);
    }

    private static Document file(ObjectNode part, String pp, Optional<CacheMarker> cache) {
        String fp = path(pp, "file");
        ObjectNode file = requireObject(require(part, "file", fp), fp);
        Optional<String> title = optString(file, "filename", path(fp, "filename"));
        Optional<String> data = optString(file, "file_data", path(fp, "file_data"));
        Optional<String> id = optString(file, "file_id", path(fp, "file_id"));
        MediaSource source;
        if (data.isPresent()) {
            // OpenAI takes a data URL here; bare base64 is what some clients send, and PDF is the only kind it accepts.
            if (data.get().startsWith("data:")) {
                source = InlineMedia.dataUrl(data.get(), path(fp, "file_data"));
            } else {
                InlineMedia.requireBase64(data.get(), path(fp, "file_data"));
                source = new MediaSource.Base64("application/pdf", data.get());
            }
        } else if (id.isPresent()) {
            source = new MediaSource.FileRef(id.get(), "application/pdf");
        } else {
            throw invalid(fp, "`" + fp + "` needs `file_data` or `file_id`, got " + describe(file) + " without either.");
        }
        return new Document(source, title, cache);
    }

    private static List<ContentBlock> withMessageCache(ObjectNode m, String p, List<ContentBlock> blocks) {
        Optional<CacheMarker> marker = OpenAiCacheControls.read(m, p);
        if (marker.isEmpty() || blocks.isEmpty()) {
            return blocks;
        }
        List<ContentBlock> out = new ArrayList<>(blocks);
        out.set(out.size() - 1, OpenAiCacheControls.apply(out.get(out.size() - 1), marker.get()));
        return out;
    }
}
