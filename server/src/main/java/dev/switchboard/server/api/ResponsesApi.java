package dev.switchboard.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.KeyScope;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.engine.responses.InputItemPage;
import dev.switchboard.engine.responses.ResponseTurn;
import dev.switchboard.engine.responses.ResponsesService;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesRequest;
import dev.switchboard.wire.responses.ResponsesStreamWriter;
import java.util.Optional;

/**
 * The Responses format's routes: {@code POST /v1/responses} (plain or streamed),
 * {@code GET /v1/responses/{id}}, {@code DELETE /v1/responses/{id}} and
 * {@code GET /v1/responses/{id}/input_items}. Every route authenticates with {@code Authorization: Bearer}
 * and needs the key's {@code responses} endpoint scope; stored responses are the key owner's (user's).
 */
public final class ResponsesApi {
    /** The endpoint scope name every route of this format checks. */
    public static final String ENDPOINT = KeyScope.RESPONSES;

    private final ResponsesService responses;
    private final Authenticator auth;
    private final Heartbeats heartbeats;

    /** Names the hosted tools of a request that were left out (their policy: dropped, not refused). */
    public static final String DROPPED_TOOLS_HEADER = "x-switchboard-dropped-tools";

    public ResponsesApi(ResponsesService responses, Authenticator auth, Heartbeats heartbeats) {
        this.responses = responses;
        this.auth = auth;
        this.heartbeats = heartbeats;
    }

    /** {@code POST /v1/responses}. */
    public void create(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER, ENDPOINT);
        ResponsesRequest read = Responses.fromClient(ex.body());
        if (!read.droppedTools().isEmpty()) {
            // hosted tools no upstream runs and whose policy is to leave them out (web search): say which
            ex.header(DROPPED_TOOLS_HEADER, String.join(", ", read.droppedTools()));
        }
        ResponsesRequest request = read.withSettings(GatewayHeaders.apply(ex, read.settings()));
        RequestTrace trace = new RequestTrace(ex.requestId(), ENDPOINT);
        ex.trace(trace);
        ResponseTurn turn = responses.begin(caller, request, trace);
        if (!request.stream()) {
            ObjectNode shown = Responses.toClient(turn.complete(), turn.header(), turn.ids());
            turn.store(shown);
            json(ex, shown);
            return;
        }
        ResponsesStreamWriter writer = Responses.streamWriter(turn.header(), turn.ids());
        // SSE comments keep idle proxies from closing a quiet stream; event parsers skip them.
        try (SseSink sink = new SseSink(ex, writer::writeBytes, Optional.of(heartbeats), SseSink.COMMENT_HEARTBEAT)) {
            turn.stream(sink);
        }
        // what the stream showed: its terminal response, or what was generated before the client left
        turn.store(writer.terminalResponse().orElseGet(writer::cancelled));
    }

    /** {@code GET /v1/responses/{id}}; resuming a background stream ({@code ?stream=true}) is not offered. */
    public void retrieve(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER, ENDPOINT);
        if (ex.query("stream").filter(s -> s.equals("true")).isPresent()) {
            throw GatewayError.invalid("stream", "Streaming a stored response again is not supported; retrieve it "
                    + "without `stream`.").toException();
        }
        json(ex, responses.retrieve(caller, ex.pathParam("id")));
    }

    /** {@code DELETE /v1/responses/{id}}. */
    public void delete(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER, ENDPOINT);
        String id = ex.pathParam("id");
        responses.delete(caller, id);
        json(ex, Responses.deleted(id));
    }

    /** {@code GET /v1/responses/{id}/input_items?after=&limit=&order=}. */
    public void inputItems(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER, ENDPOINT);
        InputItemPage page = InputItemPage.of(ex.query("after"), ex.query("limit"), ex.query("order"));
        ResponsesService.ItemPage items = responses.inputItems(caller, ex.pathParam("id"), page);
        json(ex, Responses.itemList(items.items(), items.hasMore()));
    }

    private static void json(Exchange ex, ObjectNode body) {
        ex.respond(200, "application/json", Json.writeBytes(body));
    }
}
