package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.internal.ForeignSignatures;
import java.util.Optional;

/**
 * Gemini {@code thoughtSignature}s: a sibling of {@code text} or {@code functionCall} on the same part.
 * Read ones are tagged with origin {@code gemini}; only such ones are written to Google, because a
 * signature from another provider means nothing to it and is rejected. Clients see other providers'
 * signatures too, encoded ({@link ForeignSignatures}), so they come back with the next turn and return to
 * the provider that issued them.
 */
final class GeminiSignatures {
    static final String FIELD = "thoughtSignature";

    /**
     * What we send on the first functionCall part of a model turn that has no Gemini signature (history
     * from another provider, or from a client that dropped it). Google documents this value as the way
     * to pass such history to models that validate signatures (Gemini 3); without it they answer 400.
     */
    static final String SKIP_VALIDATOR = "skip_thought_signature_validator";

    private GeminiSignatures() {
    }

    /** The signature on a client's part (either spelling): Google's, or another provider's we encoded; empty when absent. */
    static Optional<Signature> read(GeminiObjectReader part) {
        return part.optString(FIELD).filter(s -> !s.isEmpty()).map(s -> ForeignSignatures.fromClient(s, Gemini.FORMAT));
    }

    /** A signature as a client's part carries it: Google's as it is, another provider's encoded (written as Google's). */
    static Optional<Signature> forClient(Optional<Signature> signature) {
        return signature.filter(s -> !s.value().isEmpty())
                .map(s -> new Signature(Gemini.FORMAT, ForeignSignatures.forClient(s, Gemini.FORMAT)));
    }

    /** The signature of an upstream part (Google always spells it in camelCase). */
    static Optional<Signature> readUpstream(JsonNode part) {
        JsonNode v = part.path(FIELD);
        return v.isTextual() && !v.textValue().isEmpty()
                ? Optional.of(new Signature(Gemini.FORMAT, v.textValue()))
                : Optional.empty();
    }

    /** Puts the signature on the part when it is a Gemini one; returns whether it did. */
    static boolean write(ObjectNode part, Optional<Signature> signature) {
        Optional<Signature> own = signature.filter(s -> s.isFrom(Gemini.FORMAT));
        own.ifPresent(s -> part.put(FIELD, s.value()));
        return own.isPresent();
    }

    static boolean isOwn(Optional<Signature> signature) {
        return signature.filter(s -> s.isFrom(Gemini.FORMAT)).isPresent();
    }
}
