package dev.switchboard.wire.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.sse.SseEvent;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * What {@link FixtureRunner} needs of one wire format: its translations in both directions, plus
 * optional checks of its own that go beyond the goldens (each called after the chain's goldens were
 * compared).
 */
public interface FixtureFormat {

    /** The directory under {@code fixtures/}. */
    String name();

    /** The client's request in canonical form; a refusal is a {@link dev.switchboard.model.GatewayException}. */
    ChatRequest fromClient(FixtureCase c, JsonNode body);

    /** A body of the validation table in canonical form; {@code row} may carry format settings. */
    ChatRequest fromClient(byte[] body, JsonNode row);

    /** The HTTP error body a client of this format gets. */
    JsonNode errorBody(GatewayError error);

    /** The request sent upstream; empty for a format that only faces clients. */
    Optional<JsonNode> toUpstream(FixtureCase c, ChatRequest request);

    /** An upstream's whole answer in canonical form; an answer that is an error (a failed response) throws it. */
    ChatResponse fromUpstream(FixtureCase c, JsonNode body);

    GatewayError errorFromUpstream(int status, byte[] body);

    /** A fresh parser of one upstream stream of the case. */
    StreamParser streamParser(FixtureCase c);

    JsonNode toClient(FixtureCase c, ChatResponse response);

    /** The whole client stream for {@code events}, as one writer would send it. */
    String toClientStream(FixtureCase c, List<StreamEvent> events);

    default void checkRequest(FixtureCase c, Optional<JsonNode> client, ChatRequest canonical, Optional<JsonNode> upstream) {
    }

    default void checkResponse(FixtureCase c, Optional<JsonNode> upstream, ChatResponse canonical, JsonNode client) {
    }

    default void checkStream(FixtureCase c, Optional<String> upstream, List<StreamEvent> events, String client) {
    }

    /** The upstream stream parser of a format, fed the SSE events of one stream. */
    interface StreamParser {
        List<StreamEvent> onEvent(SseEvent event);

        List<StreamEvent> onEnd();

        /** A parser from a format's two methods: one SSE event (its name and data) in, the end of the stream. */
        static StreamParser of(BiFunction<Optional<String>, String, List<StreamEvent>> onEvent,
                               Supplier<List<StreamEvent>> onEnd) {
            return new StreamParser() {
                @Override
                public List<StreamEvent> onEvent(SseEvent event) {
                    return onEvent.apply(event.event(), event.data());
                }

                @Override
                public List<StreamEvent> onEnd() {
                    return onEnd.get();
                }
            };
        }
    }
}
