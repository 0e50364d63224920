package dev.switchboard.engine.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.catalog.AllowedParams;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Passthrough;
import dev.switchboard.model.Sampling;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The sampling parameters a model refuses ({@link ModelEntry#refusedParams()}, e.g. {@code temperature} on
 * OpenAI's reasoning models, which answer 400 to a non-default value): left out of what its upstreams get,
 * and named in the response's header so the caller knows. {@code allowed-params} never lists them.
 */
final class RefusedParams {
    private RefusedParams() {
    }

    /** {@code request} without what {@code model} refuses. */
    static ChatRequest strip(ChatRequest request, ModelEntry model) {
        if (named(request, model).isEmpty()) {
            return request;
        }
        var refused = model.refusedParams();
        Sampling s = request.sampling();
        Sampling kept = new Sampling(
                refused.contains("temperature") ? Optional.empty() : s.temperature(),
                refused.contains("top_p") ? Optional.empty() : s.topP(),
                refused.contains("top_k") ? OptionalInt.empty() : s.topK(),
                refused.contains("presence_penalty") ? Optional.empty() : s.presencePenalty(),
                refused.contains("frequency_penalty") ? Optional.empty() : s.frequencyPenalty(),
                refused.contains("seed") ? OptionalLong.empty() : s.seed());
        Map<String, JsonNode> fields = new LinkedHashMap<>(request.passthrough().fields());
        fields.keySet().removeIf(refused::contains);
        ChatRequest.Builder b = request.toBuilder().sampling(kept)
                .passthrough(fields.isEmpty() ? Passthrough.NONE : new Passthrough(request.passthrough().format(), fields));
        if (refused.contains("stop")) {
            b.stop(List.of());
        }
        if (refused.contains("logprobs")) {
            b.logprobs(OptionalInt.empty());
        } else if (refused.contains("top_logprobs") && request.logprobs().isPresent()) {
            b.logprobs(OptionalInt.of(0)); // the chosen tokens' logprobs still, without alternatives
        }
        return b.build();
    }

    /** The refused parameters {@code request} sets, in the order of {@link AllowedParams#REFUSABLE}'s names. */
    static List<String> named(ChatRequest request, ModelEntry model) {
        List<String> out = new ArrayList<>();
        if (model.refusedParams().isEmpty()) {
            return out;
        }
        Sampling s = request.sampling();
        for (String p : new java.util.TreeSet<>(model.refusedParams())) {
            boolean set = switch (p) {
                case "temperature" -> s.temperature().isPresent();
                case "top_p" -> s.topP().isPresent();
                case "top_k" -> s.topK().isPresent();
                case "presence_penalty" -> s.presencePenalty().isPresent();
                case "frequency_penalty" -> s.frequencyPenalty().isPresent();
                case "seed" -> s.seed().isPresent();
                case "stop" -> !request.stop().isEmpty();
                case "logprobs" -> request.logprobs().isPresent();
                case "top_logprobs" -> request.logprobs().orElse(0) > 0;
                default -> request.passthrough().fields().containsKey(p);
            };
            if (set) {
                out.add(p);
            }
        }
        return out;
    }
}
