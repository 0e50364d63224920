package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * What the gateway keeps in a reasoning item's {@code encrypted_content}: the provider-opaque state that
 * must go back to the provider that issued it (Anthropic thinking signatures and redacted thinking,
 * Gemini thought signatures, OpenAI encrypted reasoning). The Responses format has no other place for
 * it, and this one survives both storage and a caller that replays output items by hand.
 *
 * <p>Encoding: {@value #PREFIX} then base64url (no padding) of a small JSON object. It is opaque to
 * callers, not secret: a forged value only makes its issuer reject the request. A value without the
 * prefix is someone else's encrypted reasoning (OpenAI's own) and is kept as a {@link Foreign} payload.
 */
sealed interface ResponsesReasoningPayload {
    String PREFIX = "sb1.";

    /** The signature of the reasoning item's own trace. */
    record Own(Signature signature) implements ResponsesReasoningPayload {
        public Own {
            Objects.requireNonNull(signature, "signature");
        }
    }

    /** Redacted reasoning: only {@code origin} can read {@code data}. */
    record Redacted(String data, String origin) implements ResponsesReasoningPayload {
        public Redacted {
            Objects.requireNonNull(data, "data");
            Objects.requireNonNull(origin, "origin");
        }
    }

    /** The signature that was on the function call {@code callId} of the same turn (Gemini). */
    record OnCall(String callId, Signature signature) implements ResponsesReasoningPayload {
        public OnCall {
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(signature, "signature");
        }
    }

    /** The signature that was on the text just before this item (Gemini). */
    record OnText(Signature signature) implements ResponsesReasoningPayload {
        public OnText {
            Objects.requireNonNull(signature, "signature");
        }
    }

    /** Encrypted content the gateway did not write; it belongs to the Responses format itself. */
    record Foreign(String value) implements ResponsesReasoningPayload {
        public Foreign {
            Objects.requireNonNull(value, "value");
        }
    }

    static String encode(ResponsesReasoningPayload payload) {
        ObjectNode o = Json.object();
        switch (payload) {
            case Own s -> signature(o.put("k", "own"), s.signature());
            case Redacted r -> o.put("k", "redacted").put("o", r.origin()).put("v", r.data());
            case OnCall c -> signature(o.put("k", "call").put("c", c.callId()), c.signature());
            case OnText t -> signature(o.put("k", "text"), t.signature());
            case Foreign f -> {
                return f.value();
            }
        }
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(Json.writeBytes(o));
    }

    /** Never fails: anything that is not a well-formed payload of ours is {@link Foreign}. */
    static ResponsesReasoningPayload decode(String encrypted) {
        if (!encrypted.startsWith(PREFIX)) {
            return new Foreign(encrypted);
        }
        return parse(encrypted.substring(PREFIX.length())).flatMap(ResponsesReasoningPayload::read)
                .orElseGet(() -> new Foreign(encrypted));
    }

    private static void signature(ObjectNode o, Signature s) {
        o.put("o", s.origin()).put("v", s.value());
    }

    private static Optional<JsonNode> parse(String base64) {
        try {
            byte[] json = Base64.getUrlDecoder().decode(base64);
            return Optional.ofNullable(Json.MAPPER.readTree(new String(json, StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException | IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<ResponsesReasoningPayload> read(JsonNode o) {
        String origin = o.path("o").asText("");
        String value = o.path("v").asText("");
        if (origin.isEmpty() || !o.path("v").isTextual()) {
            return Optional.empty();
        }
        Signature sig = new Signature(origin, value);
        return switch (o.path("k").asText("")) {
            case "own" -> Optional.of(new Own(sig));
            case "redacted" -> Optional.of(new Redacted(value, origin));
            case "call" -> o.path("c").isTextual() ? Optional.of(new OnCall(o.path("c").textValue(), sig))
                    : Optional.empty();
            case "text" -> Optional.of(new OnText(sig));
            default -> Optional.empty();
        };
    }
}
