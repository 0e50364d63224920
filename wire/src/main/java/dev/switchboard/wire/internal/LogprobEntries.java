package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.TokenLogprob;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Token log probabilities in the shape OpenAI's two formats share: chat completions'
 * {@code choices[].logprobs.content} and the Responses format's {@code output_text.logprobs}, a list of
 * {@code {token, logprob, bytes, top_logprobs: [{token, logprob, bytes}]}}. Reading is lenient (an entry
 * without a token or a numeric logprob is skipped: a provider's odd entry must not cost the answer);
 * writing always gives {@code bytes} (the token's UTF-8 bytes when the provider gave none) and
 * {@code top_logprobs}.
 */
public final class LogprobEntries {
    private LogprobEntries() {
    }

    public static List<TokenLogprob> read(JsonNode entries) {
        List<TokenLogprob> out = new ArrayList<>();
        if (!entries.isArray()) {
            return out;
        }
        for (JsonNode e : entries) {
            entry(e).ifPresent(t -> out.add(withTop(t, e.path("top_logprobs"), LogprobEntries::entry)));
        }
        return out;
    }

    /**
     * {@code token} with its alternatives: those of {@code alternatives} that {@code entry} reads, in order
     * (an entry it skips is left out). Gemini's reader shares this with the OpenAI formats' one.
     */
    public static TokenLogprob withTop(TokenLogprob token, JsonNode alternatives,
                                       Function<JsonNode, Optional<TokenLogprob>> entry) {
        List<TokenLogprob> top = new ArrayList<>();
        for (JsonNode alt : alternatives) {
            entry.apply(alt).ifPresent(top::add);
        }
        return new TokenLogprob(token.token(), token.logprob(), token.bytes(), top);
    }

    private static Optional<TokenLogprob> entry(JsonNode e) {
        if (!e.path("token").isTextual() || !e.path("logprob").isNumber()) {
            return Optional.empty();
        }
        Optional<List<Integer>> bytes = Optional.empty();
        if (e.path("bytes").isArray()) {
            List<Integer> b = new ArrayList<>();
            e.path("bytes").forEach(n -> b.add(n.asInt()));
            bytes = Optional.of(b);
        }
        return Optional.of(new TokenLogprob(e.path("token").textValue(), e.path("logprob").doubleValue(), bytes, List.of()));
    }

    public static ArrayNode write(List<TokenLogprob> tokens) {
        ArrayNode out = Json.array();
        for (TokenLogprob t : tokens) {
            ObjectNode e = entry(t);
            ArrayNode top = e.putArray("top_logprobs");
            t.top().forEach(alt -> top.add(entry(alt)));
            out.add(e);
        }
        return out;
    }

    private static ObjectNode entry(TokenLogprob t) {
        ObjectNode e = Json.object().put("token", t.token()).put("logprob", t.logprob());
        ArrayNode bytes = e.putArray("bytes");
        t.bytes().orElseGet(() -> utf8(t.token())).forEach(bytes::add);
        return e;
    }

    private static List<Integer> utf8(String token) {
        List<Integer> out = new ArrayList<>();
        for (byte b : token.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            out.add(b & 0xff);
        }
        return out;
    }
}
