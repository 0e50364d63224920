package dev.switchboard.server.http;

import dev.switchboard.model.GatewayError;
import java.util.Optional;

/**
 * Watches every routed request from before its handler runs until its status is known (tracing's server span).
 * Both calls happen on the request's thread, so an observation may make something current for the handler.
 * {@link #NONE} does nothing and costs one call per request.
 */
public interface RequestObserver {
    /** One request being watched. */
    interface Observation {
        /** The request ended with {@code status}; {@code refusal} is the error its caller was given, if any. */
        void end(int status, Optional<GatewayError> refusal);
    }

    Observation NOTHING = (status, refusal) -> { };
    RequestObserver NONE = (route, exchange) -> NOTHING;

    /** The request is routed to {@code route} and its handler is about to run. */
    Observation start(Route route, Exchange exchange);
}
