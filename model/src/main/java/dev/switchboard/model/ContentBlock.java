package dev.switchboard.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One block of message content in the canonical model. The set is the union of what the four wire
 * formats can express, so that nothing a client or provider sent is lost on the way through:
 * thinking with signatures, redacted thinking and provider-specific blocks ({@link Opaque}) survive a
 * round trip even when the formats in between cannot show them.
 */
public sealed interface ContentBlock {

    /** The prompt-cache breakpoint on this block, if any. */
    default Optional<CacheMarker> cache() {
        return Optional.empty();
    }

    /** The text blocks of {@code blocks}, concatenated; other blocks (images, tool calls, reasoning) are skipped. */
    static String textOf(List<ContentBlock> blocks) {
        StringBuilder sb = new StringBuilder();
        for (ContentBlock b : blocks) {
            if (b instanceof Text t) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }

    /** Plain text. {@code signature} carries a Gemini thoughtSignature that was on the same part. */
    record Text(String text, Optional<CacheMarker> cache, Optional<Signature> signature) implements ContentBlock {
        public Text {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(cache, "cache");
            Objects.requireNonNull(signature, "signature");
        }

        public static Text of(String text) {
            return new Text(text, Optional.empty(), Optional.empty());
        }

        public Text withCache(Optional<CacheMarker> marker) {
            return new Text(text, marker, signature);
        }
    }

    /**
     * The model's refusal to answer, kept apart from its answer text so that formats that have a refusal
     * (chat-completions {@code refusal}, Responses {@code refusal} parts) show and replay it as one. Formats
     * without one render it as text. Streamed, a refusal block opens with empty text and grows by
     * {@link StreamEvent.Delta.TextDelta}s, like a text block.
     */
    record Refusal(String text) implements ContentBlock {
        public Refusal {
            Objects.requireNonNull(text, "text");
        }
    }

    /** An image. {@code detail} is the chat-completions hint (auto, low, high) when the client gave one. */
    record Image(MediaSource source, Optional<String> detail, Optional<CacheMarker> cache) implements ContentBlock {
        public Image {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(detail, "detail");
            Objects.requireNonNull(cache, "cache");
        }

        public static Image of(MediaSource source) {
            return new Image(source, Optional.empty(), Optional.empty());
        }
    }

    /** A document (PDF, plain text) the model should read. */
    record Document(MediaSource source, Optional<String> title, Optional<CacheMarker> cache) implements ContentBlock {
        public Document {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(cache, "cache");
        }
    }

    /**
     * A call of a client-defined tool. {@code argumentsJson} is the arguments object as JSON text, exactly
     * as the model produced it (it may be malformed; translators that need an object parse it and
     * treat an empty string as {@code {}}). {@code signature} holds a Gemini thoughtSignature that was on
     * the functionCall part; {@code cache} a prompt-cache breakpoint a client put on the call (the messages
     * format allows one on {@code tool_use} blocks).
     */
    record ToolCall(String id, String name, String argumentsJson, Optional<Signature> signature,
                    Optional<CacheMarker> cache) implements ContentBlock {
        public ToolCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(argumentsJson, "argumentsJson");
            Objects.requireNonNull(signature, "signature");
            Objects.requireNonNull(cache, "cache");
        }

        /** A call without a cache breakpoint. */
        public ToolCall(String id, String name, String argumentsJson, Optional<Signature> signature) {
            this(id, name, argumentsJson, signature, Optional.empty());
        }

        /** The same call with another id and name (what an upstream format accepts, or the client's again). */
        public ToolCall renamed(String newId, String newName) {
            return new ToolCall(newId, newName, argumentsJson, signature, cache);
        }

        public static ToolCall of(String id, String name, String argumentsJson) {
            return new ToolCall(id, name, argumentsJson, Optional.empty());
        }
    }

    /**
     * The result of a tool call, sent back by the client. {@code name} is the called tool's name when the
     * client format carries it or it could be resolved from the call (Gemini requires it).
     */
    record ToolResult(String callId, Optional<String> name, List<ContentBlock> content, boolean isError,
                      Optional<CacheMarker> cache) implements ContentBlock {
        public ToolResult {
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(name, "name");
            content = List.copyOf(content);
            Objects.requireNonNull(cache, "cache");
        }

        /** The text of all text blocks of the result, concatenated. */
        public String text() {
            return textOf(content);
        }
    }

    /**
     * A reasoning trace. {@code text} may be empty (providers that omit the trace but sign it); the
     * signature, when present, must be echoed back unchanged to the provider that issued it.
     */
    record Thinking(String text, Optional<Signature> signature) implements ContentBlock {
        public Thinking {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(signature, "signature");
        }

        public static Thinking of(String text) {
            return new Thinking(text, Optional.empty());
        }
    }

    /** Encrypted reasoning (Anthropic {@code redacted_thinking}); only its issuer can read it. */
    record RedactedThinking(String data, String origin) implements ContentBlock {
        public RedactedThinking {
            Objects.requireNonNull(data, "data");
            Objects.requireNonNull(origin, "origin");
        }
    }

    /**
     * Something one wire format has and the canonical model does not model (server-tool blocks, search
     * results, citations...). {@code format} names the wire format it came from; only that format's
     * translators emit it again, others skip it.
     */
    record Opaque(String format, JsonNode json) implements ContentBlock {
        public Opaque {
            Objects.requireNonNull(format, "format");
            Objects.requireNonNull(json, "json");
        }
    }
}
