package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.ForeignSignatures;
import dev.switchboard.wire.internal.InlineMedia;
import dev.switchboard.wire.internal.JsonFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the content blocks of a client's messages into canonical blocks, validating
 * as it goes. One instance per request: it remembers tool names by call id so that a later
 * {@code tool_result} carries the name Gemini needs, and it counts cache breakpoints.
 *
 * <p>Kept whole as {@code Opaque("anthropic")}: server-tool and search blocks, and documents using
 * features the canonical {@code Document} cannot express ({@code context}, {@code citations}, a
 * {@code content} source), so an Anthropic upstream receives them unchanged. Dropped: {@code citations}
 * on text blocks (response annotations a client echoes back; the text itself is kept) and
 * {@code cache_control} on {@code thinking} blocks (Anthropic caches thinking only as part of the turn; the
 * breakpoint is still counted). A {@code tool_use} block keeps its marker.
 */
final class AnthropicClientContentReader {
    /** Block types passed through whole; any type ending in _tool_use or _tool_result is treated alike. */
    private static final Set<String> OPAQUE_TYPES = Set.of("server_tool_use", "mcp_tool_use", "mcp_tool_result",
            "search_result", "container_upload");
    private static final Set<String> TOOL_RESULT_CONTENT_TYPES = Set.of("text", "image", "document", "search_result");

    private final AnthropicCacheControls.Breakpoints breakpoints;
    private final Map<String, String> toolNames = new HashMap<>();

    AnthropicClientContentReader(AnthropicCacheControls.Breakpoints breakpoints) {
        this.breakpoints = breakpoints;
    }

    /** A message's {@code content}: a string (one text block) or an array of blocks. */
    List<ContentBlock> content(JsonNode content, String path, Role role) {
        if (content.isTextual()) {
            return List.of(ContentBlock.Text.of(content.textValue()));
        }
        ArrayNode blocks = JsonFields.requireArray(content, path);
        List<ContentBlock> out = new ArrayList<>(blocks.size());
        Optional<Signature> forNext = Optional.empty();
        for (int i = 0; i < blocks.size(); i++) {
            ContentBlock b = block(blocks.get(i), JsonFields.index(path, i), role);
            Optional<Signature> carried = b instanceof ContentBlock.Thinking t && t.text().isEmpty()
                    ? t.signature().flatMap(ForeignSignatures::ofNextBlock) : Optional.empty();
            if (carried.isPresent()) {
                forNext = carried; // the carrier itself is not a trace
                continue;
            }
            if (forNext.isPresent()) {
                b = withSignature(b, forNext.get());
                forNext = Optional.empty();
            }
            out.add(b);
        }
        return out;
    }

    /** {@code b} with the signature its carrier held (a Gemini signature of a tool call or text part). */
    private static ContentBlock withSignature(ContentBlock b, Signature signature) {
        return switch (b) {
            case ContentBlock.ToolCall c -> new ContentBlock.ToolCall(c.id(), c.name(), c.argumentsJson(), Optional.of(signature),
                    c.cache());
            case ContentBlock.Text t -> new ContentBlock.Text(t.text(), t.cache(), Optional.of(signature));
            default -> b;
        };
    }

    /** A {@code system} text block. */
    ContentBlock.Text systemBlock(JsonNode node, String path) {
        JsonFields.requireObject(node, path);
        String type = JsonFields.requireString(node, "type", JsonFields.path(path, "type"));
        if (!type.equals("text")) {
            throw JsonFields.invalid(JsonFields.path(path, "type"),
                    "`system` blocks must be of type \"text\", got \"" + type + "\".");
        }
        return text(node, path);
    }

    private ContentBlock block(JsonNode node, String path, Role role) {
        JsonFields.requireObject(node, path);
        String typePath = JsonFields.path(path, "type");
        String type = JsonFields.requireString(node, "type", typePath);
        return switch (type) {
            case "text" -> text(node, path);
            case "image" -> image(node, path);
            case "document" -> document(node, path);
            case "tool_use" -> {
                only(role, Role.ASSISTANT, type, typePath);
                yield toolUse(node, path);
            }
            case "tool_result" -> {
                only(role, Role.USER, type, typePath);
                yield toolResult(node, path);
            }
            case "thinking" -> {
                only(role, Role.ASSISTANT, type, typePath);
                yield thinking(node, path);
            }
            case "redacted_thinking" -> {
                only(role, Role.ASSISTANT, type, typePath);
                AnthropicCacheControls.read(node, path, breakpoints);
                Signature data = ForeignSignatures.fromClient(
                        JsonFields.requireString(node, "data", JsonFields.path(path, "data")), Anthropic.FORMAT);
                yield new ContentBlock.RedactedThinking(data.value(), data.origin());
            }
            default -> {
                if (isOpaque(type)) {
                    yield opaque(node, path);
                }
                throw JsonFields.invalid(typePath, "Unknown content block type \"" + type + "\" at `" + typePath + "`.");
            }
        };
    }

    private static boolean isOpaque(String type) {
        return OPAQUE_TYPES.contains(type) || type.endsWith("_tool_result") || type.endsWith("_tool_use");
    }

    private static void only(Role actual, Role expected, String type, String typePath) {
        if (actual != expected) {
            throw JsonFields.invalid(typePath, "`" + type + "` blocks are only allowed in "
                    + (expected == Role.USER ? "user" : "assistant") + " turns (`" + typePath + "`).");
        }
    }

    private ContentBlock.Text text(JsonNode node, String path) {
        String text = JsonFields.requireString(node, "text", JsonFields.path(path, "text"));
        return new ContentBlock.Text(text, AnthropicCacheControls.read(node, path, breakpoints), Optional.empty());
    }

    private ContentBlock image(JsonNode node, String path) {
        String at = JsonFields.path(path, "source");
        JsonNode source = JsonFields.requireObject(JsonFields.require(node, "source", at), at);
        String type = JsonFields.requireString(source, "type", JsonFields.path(at, "type"));
        MediaSource media = switch (type) {
            case "base64" -> InlineMedia.image(
                    JsonFields.requireNonEmptyString(source, "media_type", JsonFields.path(at, "media_type")),
                    JsonFields.requireString(source, "data", JsonFields.path(at, "data")),
                    JsonFields.path(at, "media_type"), JsonFields.path(at, "data"));
            case "url" -> new MediaSource.Url(JsonFields.requireNonEmptyString(source, "url", JsonFields.path(at, "url")));
            case "file" -> new MediaSource.FileRef(
                    JsonFields.requireNonEmptyString(source, "file_id", JsonFields.path(at, "file_id")), "image/*");
            default -> throw JsonFields.invalid(JsonFields.path(at, "type"),
                    "`" + JsonFields.path(at, "type") + "` must be \"base64\", \"url\" or \"file\", got \"" + type + "\".");
        };
        return new ContentBlock.Image(media, Optional.empty(), AnthropicCacheControls.read(node, path, breakpoints));
    }

    private ContentBlock document(JsonNode node, String path) {
        String at = JsonFields.path(path, "source");
        JsonNode source = JsonFields.requireObject(JsonFields.require(node, "source", at), at);
        String type = JsonFields.requireString(source, "type", JsonFields.path(at, "type"));
        Optional<String> title = JsonFields.optString(node, "title", JsonFields.path(path, "title"));
        Optional<CacheMarker> cache = AnthropicCacheControls.read(node, path, breakpoints);
        if (type.equals("content")) {
            JsonFields.require(source, "content", JsonFields.path(at, "content"));
            return new ContentBlock.Opaque(Anthropic.FORMAT, node.deepCopy());
        }
        MediaSource media = switch (type) {
            case "base64" -> base64(source, at);
            case "url" -> new MediaSource.Url(JsonFields.requireNonEmptyString(source, "url", JsonFields.path(at, "url")));
            case "text" -> new MediaSource.PlainText(JsonFields.requireString(source, "data", JsonFields.path(at, "data")));
            case "file" -> new MediaSource.FileRef(
                    JsonFields.requireNonEmptyString(source, "file_id", JsonFields.path(at, "file_id")), "application/pdf");
            default -> throw JsonFields.invalid(JsonFields.path(at, "type"), "`" + JsonFields.path(at, "type")
                    + "` must be \"base64\", \"url\", \"text\", \"content\" or \"file\", got \"" + type + "\".");
        };
        if (JsonFields.opt(node, "context").isPresent() || JsonFields.opt(node, "citations").isPresent()) {
            // Citations and context have no canonical field: keep the block whole for an Anthropic upstream.
            return new ContentBlock.Opaque(Anthropic.FORMAT, node.deepCopy());
        }
        return new ContentBlock.Document(media, title, cache);
    }

    private static MediaSource.Base64 base64(JsonNode source, String at) {
        String data = JsonFields.requireString(source, "data", JsonFields.path(at, "data"));
        InlineMedia.requireBase64(data, JsonFields.path(at, "data"));
        return new MediaSource.Base64(
                JsonFields.requireNonEmptyString(source, "media_type", JsonFields.path(at, "media_type")), data);
    }

    private ContentBlock toolUse(JsonNode node, String path) {
        String id = JsonFields.requireNonEmptyString(node, "id", JsonFields.path(path, "id"));
        String name = JsonFields.requireNonEmptyString(node, "name", JsonFields.path(path, "name"));
        String input = JsonFields.optObject(node, "input", JsonFields.path(path, "input")).map(Json::write).orElse("{}");
        Optional<CacheMarker> cache = AnthropicCacheControls.read(node, path, breakpoints);
        toolNames.put(id, name);
        return new ContentBlock.ToolCall(id, name, input, Optional.empty(), cache);
    }

    private ContentBlock toolResult(JsonNode node, String path) {
        String id = JsonFields.requireNonEmptyString(node, "tool_use_id", JsonFields.path(path, "tool_use_id"));
        String at = JsonFields.path(path, "content");
        List<ContentBlock> content = new ArrayList<>();
        Optional<JsonNode> raw = JsonFields.opt(node, "content");
        if (raw.isPresent() && raw.get().isTextual()) {
            content.add(ContentBlock.Text.of(raw.get().textValue()));
        } else if (raw.isPresent()) {
            ArrayNode blocks = JsonFields.requireArray(raw.get(), at);
            for (int i = 0; i < blocks.size(); i++) {
                String blockPath = JsonFields.index(at, i);
                JsonNode block = JsonFields.requireObject(blocks.get(i), blockPath);
                String type = JsonFields.requireString(block, "type", JsonFields.path(blockPath, "type"));
                if (!TOOL_RESULT_CONTENT_TYPES.contains(type)) {
                    throw JsonFields.invalid(JsonFields.path(blockPath, "type"), "A tool_result may contain text, image, "
                            + "document and search_result blocks, got \"" + type + "\".");
                }
                content.add(block(block, blockPath, Role.USER));
            }
        }
        if (!toolNames.containsKey(id)) {
            throw JsonFields.invalid(JsonFields.path(path, "tool_use_id"), "No tool_use block with id \"" + id
                    + "\" comes before this tool_result: a tool result must answer a call of an earlier assistant message.");
        }
        boolean isError = JsonFields.optBoolean(node, "is_error", JsonFields.path(path, "is_error")).orElse(false);
        Optional<CacheMarker> cache = AnthropicCacheControls.read(node, path, breakpoints);
        return new ContentBlock.ToolResult(id, Optional.of(toolNames.get(id)), content, isError, cache);
    }

    /**
     * An empty signature is no signature: it is what this gateway shows for traces no provider signed.
     * Another provider's signature comes back in the encoding it was shown in ({@link ForeignSignatures}).
     */
    private ContentBlock thinking(JsonNode node, String path) {
        String text = JsonFields.requireString(node, "thinking", JsonFields.path(path, "thinking"));
        Optional<Signature> signature = JsonFields.optString(node, "signature", JsonFields.path(path, "signature"))
                .filter(s -> !s.isEmpty())
                .map(s -> ForeignSignatures.fromClient(s, Anthropic.FORMAT));
        AnthropicCacheControls.read(node, path, breakpoints);
        return new ContentBlock.Thinking(text, signature);
    }

    private ContentBlock opaque(JsonNode node, String path) {
        AnthropicCacheControls.read(node, path, breakpoints);
        return new ContentBlock.Opaque(Anthropic.FORMAT, node.deepCopy());
    }
}
