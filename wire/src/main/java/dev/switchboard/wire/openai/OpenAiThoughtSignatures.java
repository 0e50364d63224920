package dev.switchboard.wire.openai;

import static dev.switchboard.wire.internal.JsonFields.optObject;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.path;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Signature;
import java.util.Optional;

/**
 * Gemini thought signatures on tool calls, where Gemini's own OpenAI-compatible endpoint puts them:
 * {@code tool_calls[].extra_content.google.thought_signature}. Using its spelling means clients that
 * already round-trip that field for Gemini round-trip ours too.
 */
final class OpenAiThoughtSignatures {
    static final String GEMINI = "gemini";

    private OpenAiThoughtSignatures() {
    }

    /** The signature on a tool call object, if any; its origin is always Gemini. */
    static Optional<Signature> read(ObjectNode call, String callPath) {
        String ep = path(callPath, "extra_content");
        return optObject(call, "extra_content", ep)
                .flatMap(e -> optObject(e, "google", path(ep, "google")))
                .flatMap(g -> optString(g, "thought_signature", path(path(ep, "google"), "thought_signature")))
                .filter(s -> !s.isEmpty())
                .map(s -> new Signature(GEMINI, s));
    }

    /** Adds the signature to a tool call object when it is a Gemini one; others have no place here. */
    static void write(ObjectNode call, Optional<Signature> signature) {
        signature.filter(s -> s.isFrom(GEMINI))
                .ifPresent(s -> extraContent(call).putObject("google").put("thought_signature", s.value()));
    }

    /** The tool call's {@code extra_content} object, created when missing. */
    static ObjectNode extraContent(ObjectNode call) {
        return call.get("extra_content") instanceof ObjectNode o ? o : call.putObject("extra_content");
    }
}
