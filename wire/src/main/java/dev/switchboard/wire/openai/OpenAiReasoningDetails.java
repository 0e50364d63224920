package dev.switchboard.wire.openai;

import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.path;
import static dev.switchboard.wire.internal.JsonFields.requireObject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The OpenRouter-style {@code reasoning_details} array: the one place in the chat-completions shape
 * where reasoning can carry its provider signature, so it is how signatures and redacted reasoning
 * survive a round trip through a chat-completions client.
 *
 * <p>Entry kinds: {@code reasoning.text {text, signature?}} is a {@link Thinking} block,
 * {@code reasoning.encrypted {data}} a {@link RedactedThinking} block, {@code reasoning.summary
 * {summary}} an unsigned {@link Thinking}. Consecutive {@code reasoning.text} fragments of one block
 * (same {@code index}, as streamed and accumulated by clients) are merged.
 *
 * <p>The entry's {@code format} names who issued the signature. Towards our clients it is the
 * signature's origin format ({@code anthropic}, {@code gemini}, ...) and is read back as the origin, so
 * a signature returns to the provider that issued it. From an OpenAI-compatible upstream the origin is
 * always {@code openai} whatever the upstream's own label: that upstream issued it and only it can
 * check it.
 *
 * <p>Towards clients the entries are also copied onto the message's first tool call, as
 * {@code tool_calls[0].extra_content.switchboard.reasoning_details} (the vendor-keyed
 * {@code extra_content} that Gemini uses for its signatures). Some SDKs rebuild an assistant message
 * from known fields only but keep tool calls whole (the official Java SDK's {@code toParam()} does),
 * and signed reasoning matters exactly on turns with tool calls, where Anthropic requires it back.
 */
final class OpenAiReasoningDetails {
    static final String TEXT = "reasoning.text";
    static final String ENCRYPTED = "reasoning.encrypted";
    static final String SUMMARY = "reasoning.summary";
    /** Our key in a tool call's {@code extra_content}. */
    static final String EXTENSION = "switchboard";

    private OpenAiReasoningDetails() {
    }

    /** True when the blocks hold something only {@code reasoning_details} can express. */
    static boolean needed(List<ContentBlock> blocks) {
        for (ContentBlock b : blocks) {
            if (b instanceof RedactedThinking || b instanceof Thinking t && t.signature().isPresent()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads entries into reasoning blocks, in order. {@code originOverride} (upstream side) replaces
     * every entry's {@code format}; without it (client side) the {@code format} is the origin and a
     * missing one reads as {@code unknown}, which no provider will be sent.
     */
    static List<ContentBlock> read(ArrayNode details, String path, Optional<String> originOverride) {
        List<ContentBlock> out = new ArrayList<>();
        StringBuilder text = null;
        Optional<Signature> signature = Optional.empty();
        String openIndex = null;
        for (int i = 0; i < details.size(); i++) {
            String p = index(path, i);
            ObjectNode entry = requireObject(details.get(i), p);
            String type = optString(entry, "type", path(p, "type")).orElse("");
            String entryIndex = entry.path("index").asText("");
            String origin = originOverride.orElseGet(
                    () -> optString(entry, "format", path(p, "format")).orElse("unknown"));
            boolean continues = text != null && type.equals(TEXT) && signature.isEmpty()
                    && entryIndex.equals(openIndex);
            if (!continues && text != null) {
                out.add(new Thinking(text.toString(), signature));
                text = null;
                signature = Optional.empty();
            }
            switch (type) {
                case TEXT -> {
                    if (text == null) {
                        text = new StringBuilder();
                        openIndex = entryIndex;
                    }
                    text.append(optString(entry, "text", path(p, "text")).orElse(""));
                    Optional<String> sig = optString(entry, "signature", path(p, "signature"));
                    if (sig.isPresent() && !sig.get().isEmpty()) {
                        signature = Optional.of(new Signature(origin, sig.get()));
                    }
                }
                case ENCRYPTED -> out.add(new RedactedThinking(
                        optString(entry, "data", path(p, "data")).orElse(""), origin));
                case SUMMARY -> out.add(Thinking.of(optString(entry, "summary", path(p, "summary")).orElse("")));
                default -> {
                    // Unknown kinds are someone's future format; dropping them loses nothing we could use.
                }
            }
        }
        if (text != null) {
            out.add(new Thinking(text.toString(), signature));
        }
        return out;
    }

    /** Copies the entries onto a tool call, see the class comment. */
    static void attach(ObjectNode call, ArrayNode entries) {
        OpenAiThoughtSignatures.extraContent(call).putObject(EXTENSION).set("reasoning_details", entries.deepCopy());
    }

    /** The entries a client sent back on one of the message's tool calls, if any. */
    static Optional<ArrayNode> fromToolCalls(JsonNode message) {
        for (JsonNode call : message.path("tool_calls")) {
            if (call.path("extra_content").path(EXTENSION).path("reasoning_details") instanceof ArrayNode a
                    && !a.isEmpty()) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /**
     * Gives the plain reasoning string to blocks read from entries that carried no text (a streaming
     * client that accumulated only the signature entries): the text goes into the first Thinking block,
     * keeping its signature, or into a new one in front.
     */
    static List<ContentBlock> withPlainText(List<ContentBlock> blocks, String plain) {
        boolean noText = blocks.stream().noneMatch(b -> b instanceof Thinking t && !t.text().isEmpty());
        if (plain.isEmpty() || !noText) {
            return blocks;
        }
        List<ContentBlock> out = new ArrayList<>(blocks);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) instanceof Thinking t) {
                out.set(i, new Thinking(plain, t.signature()));
                return out;
            }
        }
        out.add(0, Thinking.of(plain));
        return out;
    }

    /**
     * Writes the reasoning blocks of {@code blocks} as entries (other blocks are skipped).
     * {@code withFormat} adds the origin as {@code format} (towards clients); upstream echoes leave it
     * out because the origin there is our own label, not the upstream's.
     */
    static ArrayNode write(List<ContentBlock> blocks, boolean withFormat) {
        ArrayNode out = Json.array();
        int n = 0;
        for (ContentBlock b : blocks) {
            if (b instanceof Thinking t) {
                out.add(textEntry(n++, t.text(), t.signature(), withFormat));
            } else if (b instanceof RedactedThinking r) {
                out.add(encryptedEntry(n++, r, withFormat));
            }
        }
        return out;
    }

    static ObjectNode textEntry(int index, String text, Optional<Signature> signature, boolean withFormat) {
        ObjectNode e = Json.object();
        e.put("type", TEXT);
        e.put("text", text);
        signature.ifPresent(s -> {
            e.put("signature", s.value());
            if (withFormat) {
                e.put("format", s.origin());
            }
        });
        e.put("index", index);
        return e;
    }

    /** A signature-only entry, as streamed after the reasoning text went out in {@code delta.reasoning}. */
    static ObjectNode signatureEntry(int index, Signature signature) {
        ObjectNode e = Json.object();
        e.put("type", TEXT);
        e.put("signature", signature.value());
        e.put("format", signature.origin());
        e.put("index", index);
        return e;
    }

    static ObjectNode encryptedEntry(int index, RedactedThinking r, boolean withFormat) {
        ObjectNode e = Json.object();
        e.put("type", ENCRYPTED);
        e.put("data", r.data());
        if (withFormat) {
            e.put("format", r.origin());
        }
        e.put("index", index);
        return e;
    }
}
