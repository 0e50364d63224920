package dev.switchboard.engine.provider;

import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.ToolNames;
import dev.switchboard.wire.UpstreamStreamParser;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * What an HTTP provider adapter needs to know about one upstream wire format: how to build the call
 * (URL, auth headers, body from the format's {@code wire} package), how to read an answer, a stream and an
 * error. Pure: no I/O here; {@link HttpProviderAdapter} does the I/O through {@code UpstreamClient}.
 */
public interface Dialect {

    /** The HTTP call for one attempt, authenticated with the attempt's provider key. */
    HttpCall call(Attempt attempt, boolean stream);

    /** A successful non-streamed body of {@code attempt}. */
    ChatResponse response(Attempt attempt, byte[] body);

    /** A fresh parser for the streamed answer of {@code attempt}. */
    StreamParser streamParser(Attempt attempt);

    /** An error status and body translated to the gateway's terms. */
    GatewayError error(int status, byte[] body);

    /**
     * What of the attempt's request this format's upstream does not get, by field name (a client's fields the
     * server does not take, other formats' fields), for the response header that says so.
     */
    List<String> notCarried(Attempt attempt);

    /** What tool names and call ids this format accepts; {@link HttpProviderAdapter} rewrites them and maps them back. */
    ToolNames.Rule toolNames();

    /** Turns upstream SSE events into canonical events; one instance per stream. */
    interface StreamParser {
        /** One server-sent event ({@code event} name if any, and its data). */
        List<StreamEvent> onEvent(Optional<String> event, String data);

        /** The upstream closed the stream. */
        List<StreamEvent> onEnd();

        /** The wire format's own stream parser. */
        static StreamParser of(UpstreamStreamParser parser) {
            return of(parser::onEvent, parser::onEnd);
        }

        /** A parser from a wire format's two functions (its stream parser's methods). */
        static StreamParser of(BiFunction<Optional<String>, String, List<StreamEvent>> onEvent,
                               Supplier<List<StreamEvent>> onEnd) {
            return new StreamParser() {
                @Override
                public List<StreamEvent> onEvent(Optional<String> event, String data) {
                    return onEvent.apply(event, data);
                }

                @Override
                public List<StreamEvent> onEnd() {
                    return onEnd.get();
                }
            };
        }
    }
}
