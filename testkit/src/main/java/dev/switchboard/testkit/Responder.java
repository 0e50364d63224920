package dev.switchboard.testkit;

import java.io.IOException;

/**
 * A hand-written answer for one upstream model, for cases the name suffixes do not cover (for example a
 * stream that carries an {@code error} object mid-way). Registered with
 * {@link FakeUpstream#script(String, Responder)}.
 *
 * <p>Contract: called on the connection's own virtual thread after the request was recorded and its key
 * checked, instead of the built-in behaviour; it must answer through {@code exchange} as {@link RawExchange}
 * describes. It may block. An exception ends the connection (with a 500 if nothing was sent yet).
 */
@FunctionalInterface
public interface Responder {

    void respond(RecordedRequest request, RawExchange exchange) throws IOException;
}
