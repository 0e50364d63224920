package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.ForeignSignatures;
import dev.switchboard.wire.internal.Media;
import dev.switchboard.wire.internal.ToolArguments;
import java.util.Optional;

/**
 * Renders canonical blocks as Anthropic content blocks, for the two places that write them: a response to
 * an Anthropic client and a request to an Anthropic upstream. They differ in what may be sent:
 *
 * <ul>
 *   <li>a thinking block without an Anthropic signature: the client sees it with {@code signature: ""}
 *       (the trace is shown, spec 2.4 rule 3, and an empty signature reads back as "none"), or with another
 *       provider's signature encoded ({@link ForeignSignatures}) so it returns to that provider with the
 *       next turn; the upstream never gets it, because Anthropic rejects unsigned or foreign-signed
 *       thinking; the same goes for other providers' redacted reasoning;
 *   <li>tool ids: the client sees the ids as they are (an empty one, which a client could not send back, as
 *       {@link AnthropicToolIds#EMPTY}); the upstream gets them sanitised;
 *   <li>cache markers are request-only.
 * </ul>
 * Blocks the target cannot take (foreign opaque or redacted blocks, an image given as plain text) give
 * {@link Optional#empty()}.
 */
final class AnthropicBlockWriter {

    enum Target { CLIENT, UPSTREAM }

    private final Target target;

    AnthropicBlockWriter(Target target) {
        this.target = target;
    }

    Optional<ObjectNode> write(ContentBlock block) {
        return switch (block) {
            case ContentBlock.Text t -> Optional.of(cached(Json.object().put("type", "text").put("text", t.text()), t));
            // The messages format has no refusal block: the words are text (the stop reason says "refusal").
            case ContentBlock.Refusal r -> Optional.of(Json.object().put("type", "text").put("text", r.text()));
            case ContentBlock.Image i -> imageSource(i.source()).map(source -> {
                ObjectNode out = Json.object().put("type", "image");
                out.set("source", source);
                return cached(out, i);
            });
            case ContentBlock.Document d -> {
                ObjectNode out = Json.object().put("type", "document");
                out.set("source", documentSource(d.source()));
                d.title().ifPresent(title -> out.put("title", title));
                yield Optional.of(cached(out, d));
            }
            case ContentBlock.ToolCall c -> {
                ObjectNode out = Json.object().put("type", "tool_use")
                        .put("id", target == Target.UPSTREAM ? AnthropicToolIds.sanitize(c.id()) : AnthropicToolIds.nonEmpty(c.id()))
                        .put("name", c.name());
                out.set("input", ToolArguments.object(c.argumentsJson()));
                yield Optional.of(cached(out, c));
            }
            case ContentBlock.ToolResult r -> Optional.of(toolResult(r));
            case ContentBlock.Thinking t -> thinking(t);
            case ContentBlock.RedactedThinking r -> redacted(r);
            case ContentBlock.Opaque o -> {
                if (target == Target.UPSTREAM && Media.inputAudio(o).isPresent()) {
                    throw Media.audioRefused("Anthropic").toException();
                }
                yield o.format().equals(Anthropic.FORMAT) && o.json().isObject()
                        ? Optional.of((ObjectNode) o.json().deepCopy())
                        : Optional.empty();
            }
        };
    }

    /**
     * For a client: the empty thinking block that carries another provider's signature of {@code block} (a
     * Gemini signature on a tool call or text part), which the messages format has no field for; it goes
     * just before the block, and the client reader gives the signature back to the block
     * ({@link ForeignSignatures#forNextBlock}).
     */
    Optional<ObjectNode> carrier(ContentBlock block) {
        Optional<Signature> signature = switch (block) {
            case ContentBlock.ToolCall c -> c.signature();
            case ContentBlock.Text t -> t.signature();
            default -> Optional.empty();
        };
        return signature.filter(s -> target == Target.CLIENT && !s.value().isEmpty() && !s.isFrom(Anthropic.FORMAT))
                .map(s -> Json.object().put("type", "thinking").put("thinking", "")
                        .put("signature", ForeignSignatures.encode(ForeignSignatures.forNextBlock(s))));
    }

    private Optional<ObjectNode> thinking(ContentBlock.Thinking t) {
        Optional<String> signature = t.signature().filter(s -> !s.value().isEmpty()).flatMap(this::signature);
        if (signature.isEmpty() && target == Target.UPSTREAM) {
            return Optional.empty();
        }
        return Optional.of(Json.object().put("type", "thinking").put("thinking", t.text())
                .put("signature", signature.orElse("")));
    }

    private Optional<ObjectNode> redacted(ContentBlock.RedactedThinking r) {
        return signature(new Signature(r.origin(), r.data()))
                .map(data -> Json.object().put("type", "redacted_thinking").put("data", data));
    }

    /**
     * A signature as this target may see it: Anthropic's own as it is; another provider's only for a client,
     * encoded so that it comes back with the next turn ({@link ForeignSignatures}), never for Anthropic.
     */
    Optional<String> signature(Signature s) {
        if (s.isFrom(Anthropic.FORMAT)) {
            return Optional.of(s.value());
        }
        return target == Target.CLIENT ? Optional.of(ForeignSignatures.encode(s)) : Optional.empty();
    }

    /** A result that is one plain text block is sent as a string, the form most clients use. */
    private ObjectNode toolResult(ContentBlock.ToolResult r) {
        ObjectNode out = Json.object().put("type", "tool_result")
                .put("tool_use_id", target == Target.UPSTREAM ? AnthropicToolIds.sanitize(r.callId()) : AnthropicToolIds.nonEmpty(r.callId()));
        if (r.content().size() == 1 && r.content().getFirst() instanceof ContentBlock.Text t && t.cache().isEmpty()) {
            out.put("content", t.text());
        } else if (!r.content().isEmpty()) {
            ArrayNode content = out.putArray("content");
            for (ContentBlock b : r.content()) {
                if (b instanceof ContentBlock.ToolResult || b instanceof ContentBlock.ToolCall) {
                    continue; // not valid inside a result
                }
                write(b).ifPresent(content::add);
            }
        }
        if (r.isError()) {
            out.put("is_error", true);
        }
        return cached(out, r);
    }

    private ObjectNode cached(ObjectNode out, ContentBlock block) {
        if (target == Target.UPSTREAM) {
            AnthropicCacheControls.put(out, block.cache());
        }
        return out;
    }

    private static Optional<ObjectNode> imageSource(MediaSource source) {
        return switch (source) {
            case MediaSource.Base64 b -> Optional.of(Json.object().put("type", "base64")
                    .put("media_type", b.mediaType()).put("data", b.data()));
            case MediaSource.Url u -> Optional.of(Json.object().put("type", "url").put("url", u.url()));
            case MediaSource.FileRef f -> Optional.of(Json.object().put("type", "file").put("file_id", f.fileId()));
            case MediaSource.PlainText p -> Optional.empty();
        };
    }

    private static ObjectNode documentSource(MediaSource source) {
        return switch (source) {
            case MediaSource.Base64 b -> Json.object().put("type", "base64")
                    .put("media_type", b.mediaType()).put("data", b.data());
            case MediaSource.Url u -> Json.object().put("type", "url").put("url", u.url());
            case MediaSource.FileRef f -> Json.object().put("type", "file").put("file_id", f.fileId());
            case MediaSource.PlainText p -> Json.object().put("type", "text")
                    .put("media_type", "text/plain").put("data", p.text());
        };
    }
}
