package dev.switchboard.engine.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.Ids;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.ChatPipeline;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.responses.ResponsesIdSource;
import dev.switchboard.wire.responses.ResponsesItem;
import dev.switchboard.wire.responses.ResponsesHeader;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The Responses format's state on top of the chat pipeline: a request's conversation is the stored
 * chain behind its {@code previous_response_id} (whatever providers answered it) followed by its own
 * input, translated into one canonical request that {@link ChatPipeline} runs on any provider; the
 * answer is stored, unless {@code store} is false, under the caller's user id. Response and item ids
 * are made here (the wire layer may not invent them). Rendering answers for the client is the edge's.
 *
 * <p>Visibility follows {@link ResponseStore}: another user's response is exactly as missing as an
 * unknown one. A missing {@code previous_response_id} is the caller's mistake, a 400 naming the field;
 * a missing response in a path is a 404.
 */
public final class ResponsesService {
    private final ChatPipeline chat;
    private final ResponseStore store;
    private final Clock clock;

    public ResponsesService(ChatPipeline chat, ResponseStore store, Clock clock) {
        this.chat = chat;
        this.store = store;
        this.clock = clock;
    }

    /**
     * Prepares one turn of a conversation: finds the chain it continues, gives its input items ids and
     * builds the canonical request. Nothing is sent or stored yet.
     *
     * @throws dev.switchboard.model.GatewayException 400 when the previous response is not the caller's
     *     to continue or the conversation is not well formed
     */
    public ResponseTurn begin(Caller caller, ResponsesRequest request, RequestTrace trace) {
        List<ResponsesItem> history = new ArrayList<>();
        if (request.previousResponseId().isPresent()) {
            String previous = request.previousResponseId().get();
            List<StoredResponse> chain = store.chain(caller.userId(), previous);
            if (chain.isEmpty()) {
                throw GatewayError.invalid("previous_response_id", "Previous response with id '" + previous
                        + "' not found. Only stored responses (store: true) of the same user can be continued, "
                        + "and not after they were deleted.").toException();
            }
            for (StoredResponse r : chain) {
                history.addAll(r.input());
                if (r.outputContinues()) {
                    history.addAll(Responses.outputItems(r.response()));
                }
            }
        }
        ResponsesIdSource ids = prefix -> Ids.next(prefix, clock.instant());
        ResponsesRequest withIds = request.withInput(Responses.withIds(request.input(), ids));
        ChatRequest canonical = Responses.toCanonical(withIds, history);
        ResponsesHeader header = new ResponsesHeader(ids.next("resp"), clock.instant().getEpochSecond(), withIds.echo());
        return new ResponseTurn(chat, store, caller, withIds, canonical, header, ids, trace, clock.instant());
    }

    /** {@code GET /v1/responses/{id}}. @throws dev.switchboard.model.GatewayException 404 when not the caller's */
    public ObjectNode retrieve(Caller caller, String id) {
        return visible(caller, id).response();
    }

    /** {@code DELETE /v1/responses/{id}}. @throws dev.switchboard.model.GatewayException 404 when not the caller's */
    public void delete(Caller caller, String id) {
        if (!store.delete(caller.userId(), id, clock.instant())) {
            throw notFound(id).toException();
        }
    }

    /** One page of a response's input items, in the order asked for, and whether more follow. */
    public record ItemPage(List<ResponsesItem> items, boolean hasMore) {
        public ItemPage {
            items = List.copyOf(items);
        }
    }

    /**
     * {@code GET /v1/responses/{id}/input_items}: the items the response was generated from, i.e. the
     * earlier turns of its conversation (their input and output) and then its own input.
     *
     * @throws dev.switchboard.model.GatewayException 404 when not the caller's; 400 naming {@code after}
     *     when that item is not among them
     */
    public ItemPage inputItems(Caller caller, String id, InputItemPage page) {
        List<StoredResponse> chain = store.chain(caller.userId(), id);
        if (chain.isEmpty()) {
            throw notFound(id).toException();
        }
        List<ResponsesItem> items = new ArrayList<>();
        for (int i = 0; i < chain.size(); i++) {
            StoredResponse r = chain.get(i);
            items.addAll(r.input());
            if (i < chain.size() - 1 && r.outputContinues()) {
                items.addAll(Responses.outputItems(r.response()));
            }
        }
        if (!page.ascending()) {
            items = items.reversed();
        }
        int from = 0;
        if (page.after().isPresent()) {
            String after = page.after().get();
            from = -1;
            for (int i = 0; i < items.size() && from < 0; i++) {
                if (items.get(i).id().filter(after::equals).isPresent()) {
                    from = i + 1;
                }
            }
            if (from < 0) {
                throw GatewayError.invalid("after", "No input item with id '" + after + "' in response '" + id + "'.")
                        .toException();
            }
        }
        int to = Math.min(items.size(), from + page.limit());
        return new ItemPage(items.subList(from, to), to < items.size());
    }

    private StoredResponse visible(Caller caller, String id) {
        return store.find(caller.userId(), id).orElseThrow(() -> notFound(id).toException());
    }

    private static GatewayError notFound(String id) {
        return GatewayError.notFound("No response with id '" + id + "' found.");
    }
}
