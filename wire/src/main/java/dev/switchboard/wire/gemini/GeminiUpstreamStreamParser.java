package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.UpstreamStreamParser;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Turns Google's {@code streamGenerateContent?alt=sse} events (each a whole response-shaped chunk,
 * ) into canonical stream events. One instance per upstream stream; not thread-safe.
 *
 * <ul>
 *   <li>The first chunk starts the message ({@code responseId}, {@code modelVersion}, prompt usage).</li>
 *   <li>Text parts append to an open text block, {@code thought: true} parts to an open thinking block; a
 *       change of kind closes the open block. A part that carries a {@code thoughtSignature} forms a block
 *       of its own (Google: never merge a signed part with another), with the signature as a
 *       {@link Delta.SignatureDelta} right after its {@code BlockStart}.</li>
 *   <li>A {@code functionCall} arrives whole and becomes a complete tool-call block: {@code BlockStart}
 *       (id, name), its signature, one {@link Delta.ArgumentsDelta} with the {@code args} JSON,
 *       {@code BlockStop}. Calls without an id get {@code call_<seed>_<n>}: {@code n} counts the calls of
 *       this answer and {@code seed} is the answer's {@code responseId} (or, lacking one, a digest of the
 *       first chunk), so ids are deterministic yet differ between answers.</li>
 *   <li>A chunk's {@code logprobsResult} is a LogprobsDelta on the open text block.</li>
 *   <li>{@code inlineData} parts become image blocks; any other part kind an opaque Gemini block.</li>
 *   <li>The last {@code finishReason} and the last {@code usageMetadata} win; at the end ({@link #onEnd})
 *       the open block is closed and {@code MessageDelta} and {@code MessageStop} follow.
 *       {@code promptFeedback.blockReason} without a finish reason is {@link StopReason#REFUSAL}.</li>
 *   <li>A chunk with a top-level {@code error} becomes a {@code StreamError}; so does a malformed chunk,
 *       and a stream that ends without a finish reason (it was cut: never end silently, docs/contracts.md
 *       section 2). Nothing follows a {@code StreamError}.</li>
 * </ul>
 */
public final class GeminiUpstreamStreamParser implements UpstreamStreamParser {
    private enum Kind { TEXT, THINKING }

    private boolean started;
    private boolean done;
    private int nextIndex;
    private int openIndex = -1;
    private Kind openKind;
    private String idSeed = "";
    private int calls;
    private Optional<String> finishReason = Optional.empty();
    private boolean blocked;
    private Usage usage = Usage.EMPTY.withProvenance(Usage.Provenance.ESTIMATED);

    /** One server-sent event: its name (Google sends none) and data, a JSON chunk. */
    @Override
    public List<StreamEvent> onEvent(Optional<String> eventName, String data) {
        List<StreamEvent> out = new ArrayList<>();
        if (done || data.isBlank()) {
            return out;
        }
        JsonNode chunk;
        try {
            chunk = Json.MAPPER.readTree(data);
        } catch (IOException e) {
            fail(out, malformed("a stream chunk is not valid JSON"));
            return out;
        }
        if (chunk != null && chunk.isArray()) {
            for (JsonNode element : chunk) {
                onChunk(element, data, out);
            }
        } else {
            onChunk(chunk, data, out);
        }
        return out;
    }

    /** The upstream closed the stream. Empty when nothing had started (the engine may try elsewhere). */
    @Override
    public List<StreamEvent> onEnd() {
        List<StreamEvent> out = new ArrayList<>();
        if (done || !started) {
            done = true;
            return out;
        }
        closeOpen(out);
        if (finishReason.isEmpty() && !blocked) {
            fail(out, malformed("the stream ended without a finish reason"));
            return out;
        }
        StopReason stop = finishReason.map(r -> GeminiFinishReasons.fromWire(r, calls > 0)).orElse(StopReason.REFUSAL);
        out.add(new StreamEvent.MessageDelta(stop, Optional.empty(), usage));
        out.add(new StreamEvent.MessageStop());
        done = true;
        return out;
    }

    private void onChunk(JsonNode chunk, String data, List<StreamEvent> out) {
        if (done) {
            return;
        }
        if (!(chunk instanceof ObjectNode c)) {
            fail(out, malformed("a stream chunk is not a JSON object"));
            return;
        }
        if (c.path("error").isObject()) {
            fail(out, GeminiErrors.fromStreamError(c.get("error")));
            return;
        }
        if (c.path("usageMetadata").isObject()) {
            usage = GeminiUsageMetadata.read(c.get("usageMetadata"));
        }
        if (!started) {
            started = true;
            String responseId = text(c, "responseId");
            idSeed = responseId.isEmpty() ? digest(data) : sanitize(responseId);
            // Google may leave responseId out; an answer always has an id (the digest of its first chunk then)
            out.add(new StreamEvent.MessageStart(responseId.isEmpty() ? "gen-" + idSeed : responseId, text(c, "modelVersion"),
                    usage.provenance() == Usage.Provenance.REPORTED ? usage : Usage.EMPTY));
        }
        if (c.path("promptFeedback").path("blockReason").isTextual()) {
            blocked = true;
        }
        JsonNode candidate = c.path("candidates").path(0);
        for (JsonNode part : candidate.path("content").path("parts")) {
            if (part instanceof ObjectNode p) {
                part(p, out);
            }
        }
        List<dev.switchboard.model.TokenLogprob> logprobs = GeminiLogprobs.read(candidate.path("logprobsResult"));
        if (!logprobs.isEmpty()) {
            if (openKind != Kind.TEXT) {
                closeOpen(out);
                open(Kind.TEXT, out);
            }
            out.add(new StreamEvent.BlockDelta(openIndex, new Delta.LogprobsDelta(logprobs)));
        }
        if (candidate.path("finishReason").isTextual()) {
            finishReason = Optional.of(candidate.path("finishReason").textValue());
        }
    }

    private void part(ObjectNode p, List<StreamEvent> out) {
        Optional<Signature> signature = GeminiSignatures.readUpstream(p);
        if (p.path("functionCall").isObject()) {
            closeOpen(out);
            JsonNode fc = p.get("functionCall");
            String id = text(fc, "id");
            if (id.isEmpty()) {
                id = "call_" + idSeed + "_" + calls;
            }
            calls++;
            int index = nextIndex++;
            out.add(new StreamEvent.BlockStart(index, ContentBlock.ToolCall.of(id, text(fc, "name"), "")));
            signature.ifPresent(s -> out.add(new StreamEvent.BlockDelta(index, new Delta.SignatureDelta(s))));
            String args = fc.path("args").isObject() ? Json.write(fc.get("args")) : "{}";
            out.add(new StreamEvent.BlockDelta(index, new Delta.ArgumentsDelta(args)));
            out.add(new StreamEvent.BlockStop(index));
        } else if (p.has("text") || p.path("thought").asBoolean(false) || isSignatureOnly(p)) {
            Kind kind = p.path("thought").asBoolean(false) ? Kind.THINKING : Kind.TEXT;
            String text = text(p, "text");
            if (openKind != kind || signature.isPresent()) {
                closeOpen(out);
                open(kind, out);
            }
            signature.ifPresent(s -> out.add(new StreamEvent.BlockDelta(openIndex, new Delta.SignatureDelta(s))));
            if (!text.isEmpty()) {
                out.add(new StreamEvent.BlockDelta(openIndex,
                        kind == Kind.TEXT ? new Delta.TextDelta(text) : new Delta.ThinkingDelta(text)));
            }
            if (signature.isPresent()) {
                closeOpen(out); // a signed part is a block of its own
            }
        } else if (p.path("inlineData").isObject()) {
            closeOpen(out);
            JsonNode d = p.get("inlineData");
            complete(new ContentBlock.Image(new MediaSource.Base64(text(d, "mimeType"), text(d, "data")),
                    Optional.empty(), Optional.empty()), out);
        } else if (!p.isEmpty()) {
            closeOpen(out);
            complete(new ContentBlock.Opaque(Gemini.FORMAT, p.deepCopy()), out);
        }
    }

    private static boolean isSignatureOnly(ObjectNode p) {
        return p.size() == 1 && p.has(GeminiSignatures.FIELD);
    }

    private void open(Kind kind, List<StreamEvent> out) {
        openIndex = nextIndex++;
        openKind = kind;
        out.add(new StreamEvent.BlockStart(openIndex,
                kind == Kind.TEXT ? ContentBlock.Text.of("") : ContentBlock.Thinking.of("")));
    }

    private void closeOpen(List<StreamEvent> out) {
        if (openKind != null) {
            out.add(new StreamEvent.BlockStop(openIndex));
            openKind = null;
            openIndex = -1;
        }
    }

    private void complete(ContentBlock block, List<StreamEvent> out) {
        int index = nextIndex++;
        out.add(new StreamEvent.BlockStart(index, block));
        out.add(new StreamEvent.BlockStop(index));
    }

    private void fail(List<StreamEvent> out, GatewayError error) {
        out.add(new StreamEvent.StreamError(error));
        done = true;
    }

    private static GatewayError malformed(String what) {
        return UpstreamErrors.broken("The upstream's answer was malformed: " + what + ".");
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isTextual() ? v.textValue() : "";
    }

    /** Ids must suit every format (Anthropic allows only letters, digits, {@code _} and {@code -}). */
    private static String sanitize(String s) {
        String clean = s.replaceAll("[^A-Za-z0-9_-]", "");
        return clean.isEmpty() ? "0" : clean.length() > 32 ? clean.substring(0, 32) : clean;
    }

    private static String digest(String data) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(data.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
