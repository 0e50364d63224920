package dev.switchboard.server.api;

import dev.switchboard.engine.idempotency.IdempotentRequests;
import dev.switchboard.engine.idempotency.StoredAnswer;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.server.http.Handler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code Idempotency-Key} on the chat endpoints: a request that carries one is run once per API key and key;
 * repeats with the same path and body get the stored answer (a stream is replayed as a stream) with
 * {@code idempotent-replayed: true}; a repeat with another body is a 409 in the endpoint's format. Requests
 * without the header pass through untouched. See {@link IdempotentRequests} for what is kept and for how long.
 */
public final class IdempotencyKeys {
    public static final String HEADER = "idempotency-key";
    public static final String REPLAYED = "idempotent-replayed";
    private static final Logger LOG = LoggerFactory.getLogger(IdempotencyKeys.class);

    private final IdempotentRequests requests;
    private final Authenticator auth;

    public IdempotencyKeys(IdempotentRequests requests, Authenticator auth) {
        this.requests = requests;
        this.auth = auth;
    }

    /** {@code chat} made idempotent for requests with the header, authenticated as {@code chat} does. */
    public Handler wrap(Credentials credentials, String endpoint, Handler chat) {
        return wrap(credentials, endpoint, ex -> true, chat);
    }

    /** As {@link #wrap(Credentials, String, Handler)}, for the requests {@code applies} accepts (by path). */
    public Handler wrap(Credentials credentials, String endpoint, Predicate<Exchange> applies, Handler chat) {
        return ex -> {
            Optional<String> key = ex.header(HEADER);
            if (key.isEmpty() || !applies.test(ex)) {
                chat.handle(ex);
                return;
            }
            IdempotentRequests.refusal(key.get()).ifPresent(e -> {
                throw e.toException();
            });
            Caller caller = auth.authenticate(ex, credentials, endpoint);
            String fingerprint = IdempotentRequests.fingerprint(ex.path().getBytes(StandardCharsets.UTF_8),
                    ex.query("alt").orElse("").getBytes(StandardCharsets.UTF_8), ex.body());
            switch (requests.start(caller.keyId(), key.get(), fingerprint)) {
                case IdempotentRequests.Start.Replay r -> replay(ex, r.answer());
                case IdempotentRequests.Start.Run run -> {
                    try (IdempotentRequests.Ticket ticket = run.ticket()) {
                        RecordingExchange recording = new RecordingExchange(ex);
                        chat.handle(recording);
                        Optional<StoredAnswer> answer = recording.completeAnswer();
                        if (answer.isPresent()) {
                            store(ticket, answer.get(), ex);
                        }
                    }
                }
            }
        };
    }

    private static void store(IdempotentRequests.Ticket ticket, StoredAnswer answer, Exchange ex) {
        try {
            ticket.complete(answer);
        } catch (RuntimeException e) {
            // the caller has its answer; the repeats will run anew once the claim's lease ran out
            LOG.atWarn().addKeyValue("request_id", ex.requestId()).log("could not store the idempotent answer: {}",
                    e.getMessage());
        }
    }

    private static void replay(Exchange ex, StoredAnswer answer) throws IOException {
        answer.headers().forEach(h -> ex.header(h.name(), h.value()));
        ex.header(REPLAYED, "true");
        ex.header("x-idempotent-request-id", answer.requestId());
        if (!answer.streamed()) {
            ex.respond(answer.status(), answer.contentType(), answer.body());
            return;
        }
        try (OutputStream out = ex.openStream(answer.status(), answer.contentType())) {
            out.write(answer.body());
            out.flush();
        } catch (IOException e) {
            // the client left during the replay; nothing was run, nothing to undo
            LOG.atDebug().addKeyValue("request_id", ex.requestId()).log("client left during an idempotent replay");
        }
    }
}
