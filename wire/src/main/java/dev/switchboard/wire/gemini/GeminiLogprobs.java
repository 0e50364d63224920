package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.TokenLogprob;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.LogprobEntries;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Token log probabilities as Gemini has them: a candidate's {@code logprobsResult}, whose
 * {@code chosenCandidates[i]} ({@code token}, {@code logProbability}) is the i-th generated token and
 * {@code topCandidates[i].candidates} its alternatives. Reading skips entries without a token or a numeric
 * log probability; Gemini gives no bytes, and writing sends none.
 */
final class GeminiLogprobs {
    private GeminiLogprobs() {
    }

    static List<TokenLogprob> read(JsonNode result) {
        List<TokenLogprob> out = new ArrayList<>();
        JsonNode chosen = result.path("chosenCandidates");
        JsonNode top = result.path("topCandidates");
        for (int i = 0; i < chosen.size(); i++) {
            JsonNode alternatives = top.path(i).path("candidates");
            entry(chosen.get(i)).ifPresent(t -> out.add(LogprobEntries.withTop(t, alternatives, GeminiLogprobs::entry)));
        }
        return out;
    }

    private static Optional<TokenLogprob> entry(JsonNode c) {
        if (!c.path("token").isTextual() || !c.path("logProbability").isNumber()) {
            return Optional.empty();
        }
        return Optional.of(TokenLogprob.of(c.path("token").textValue(), c.path("logProbability").doubleValue()));
    }

    static ObjectNode write(List<TokenLogprob> tokens) {
        ObjectNode result = Json.object();
        ArrayNode top = result.putArray("topCandidates");
        ArrayNode chosen = result.putArray("chosenCandidates");
        double sum = 0;
        for (TokenLogprob t : tokens) {
            chosen.add(entry(t));
            ArrayNode alternatives = top.addObject().putArray("candidates");
            t.top().forEach(alt -> alternatives.add(entry(alt)));
            sum += t.logprob();
        }
        result.put("logProbabilitySum", sum);
        return result;
    }

    private static ObjectNode entry(TokenLogprob t) {
        return Json.object().put("token", t.token()).put("logProbability", t.logprob());
    }
}
