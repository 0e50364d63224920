package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads Google's non-streamed {@code generateContent} answer. A whole answer has the shape of a single
 * stream chunk, so it is read by {@link GeminiUpstreamStreamParser} and folded with
 * {@link StreamAccumulator}: streamed and non-streamed answers cannot drift apart in how parts, ids,
 * signatures, finish reasons and usage are read.
 *
 * <p>A top-level {@code error} throws its error; a body without a finish reason (and not blocked) or not
 * a JSON object throws a retryable 502, since another provider may well answer properly.
 */
final class GeminiUpstreamResponseReader {
    private GeminiUpstreamResponseReader() {
    }

    static ChatResponse read(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw UpstreamErrors.broken("The upstream's answer was malformed: not a JSON object.").toException();
        }
        GeminiUpstreamStreamParser parser = new GeminiUpstreamStreamParser();
        List<StreamEvent> events = new ArrayList<>(parser.onEvent(Optional.empty(), Json.write(body)));
        events.addAll(parser.onEnd());
        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        if (acc.error().isPresent()) {
            throw acc.error().get().toException();
        }
        return acc.response();
    }
}
