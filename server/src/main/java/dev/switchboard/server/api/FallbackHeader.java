package dev.switchboard.server.api;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code x-switchboard-fallbacks: model-a, model-b}: caller fallback models in a header, for clients whose SDK
 * cannot add body fields (Google's GenAI SDKs can set headers but not unknown body fields). Accepted on every
 * chat endpoint; the ids come after those of the body ({@code models} / {@code fallbacks}) and count towards
 * the same limit of {@value ChatRequest#MAX_FALLBACK_MODELS}, a 400 naming the header beyond it.
 */
final class FallbackHeader {
    static final String NAME = "x-switchboard-fallbacks";

    private FallbackHeader() {
    }

    /** {@code request} with the header's model {@code ids} after the body's fallback models. */
    static ChatRequest add(ChatRequest request, List<String> ids) {
        List<String> all = new ArrayList<>(request.fallbackModels());
        all.addAll(ids);
        if (all.size() > ChatRequest.MAX_FALLBACK_MODELS) {
            throw GatewayError.invalid(NAME, "A request may name at most " + ChatRequest.MAX_FALLBACK_MODELS
                    + " fallback models, got " + all.size() + (request.fallbackModels().isEmpty() ? "" : " with the body's")
                    + " in " + NAME + ".").toException();
        }
        return request.toBuilder().fallbackModels(all.stream().distinct().toList()).build();
    }
}
