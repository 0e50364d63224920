package dev.switchboard.wire.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.internal.EventStreamWriter;
import dev.switchboard.wire.sse.SseEvent;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What {@link FixtureRunner} needs of one wire format: its translations in both directions, each given the
 * case (whose {@code case.json} may hold settings of the format), plus checks of its own that go beyond the
 * goldens. A format states these once, as data; the runner is the only code that drives them.
 *
 * @param name               the directory under {@code fixtures/}
 * @param fromClient         the client's request in canonical form; a refusal is a
 *                           {@link dev.switchboard.model.GatewayException}. Rows of the validation table are
 *                           read by it too, each as a case whose settings are the row
 * @param errorBody          the HTTP error body a client of this format gets
 * @param toUpstream         the request sent upstream; empty for a format that only faces clients
 * @param fromUpstream       an upstream's whole answer in canonical form; an answer that is an error (a failed
 *                           response) throws it
 * @param errorFromUpstream  an upstream's error answer, from its status and body
 * @param streamParser       a fresh parser of one upstream stream of the case
 * @param toClient           the answer a client of this format gets
 * @param clientStreamWriter a fresh writer of one client stream of the case
 * @param checks             the format's own checks
 */
public record FixtureFormat(
        String name,
        BiFunction<FixtureCase, JsonNode, ChatRequest> fromClient,
        Function<GatewayError, JsonNode> errorBody,
        BiFunction<FixtureCase, ChatRequest, Optional<JsonNode>> toUpstream,
        BiFunction<FixtureCase, JsonNode, ChatResponse> fromUpstream,
        ErrorReader errorFromUpstream,
        Function<FixtureCase, StreamParser> streamParser,
        BiFunction<FixtureCase, ChatResponse, JsonNode> toClient,
        Function<FixtureCase, EventStreamWriter> clientStreamWriter,
        Checks checks) {

    /** Reads an upstream's error answer. */
    @FunctionalInterface
    public interface ErrorReader {
        GatewayError read(int status, byte[] body);
    }

    /** Checks of a format beyond the goldens, each called after its chain's goldens were compared. */
    public interface Checks {
        /** A format without checks of its own. */
        Checks NONE = new Checks() {
        };

        default void checkRequest(FixtureCase c, Optional<JsonNode> client, ChatRequest canonical, Optional<JsonNode> upstream) {
        }

        default void checkResponse(FixtureCase c, Optional<JsonNode> upstream, ChatResponse canonical, JsonNode client) {
        }

        default void checkStream(FixtureCase c, Optional<String> upstream, List<StreamEvent> events, String client) {
        }
    }

    /** The upstream stream parser of a format, fed the SSE events of one stream. */
    public interface StreamParser {
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
