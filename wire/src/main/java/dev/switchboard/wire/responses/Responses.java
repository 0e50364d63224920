package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.ErrorEnvelope;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The OpenAI Responses wire format, both directions, as pure functions: no I/O, no clock, no randomness.
 * Response ids, item ids and creation times are handed in ({@link ResponsesHeader},
 * {@link ResponsesIdSource}); what is stored and how a chain is found is the engine's business.
 *
 * <p>Requests: {@link #fromClient} validates a body into a {@link ResponsesRequest}; {@link #withIds}
 * gives its input items ids; {@link #toCanonical} turns the stored chain's items plus the request's
 * items into one canonical {@link ChatRequest}. Answers: {@link #toClient} renders a complete answer,
 * one {@link ResponsesStreamWriter} per stream renders events. Items are read and written by
 * {@link #readItem}/{@link #writeItem}, the same way for input, output and storage, so provider state
 * kept in reasoning items ({@code encrypted_content}) survives every round trip.
 *
 * <p>Upstream side (providers of {@code type: openai-responses}): {@link #toUpstream} renders a stateless
 * request ({@code store: false}, the whole conversation as input items, encrypted reasoning asked for and
 * given back), {@link #fromUpstream} reads a whole answer, one {@link ResponsesUpstreamStreamParser} per
 * stream reads the named events, {@link #errorFromUpstream} reads a failed call. Encrypted reasoning
 * travels in the canonical model as a Thinking block signed with origin {@link #FORMAT}, so it returns
 * to an upstream of this format whichever client format carried the conversation, and to no other.
 *
 * <p>Client input that breaks the format's rules throws a 400 {@link dev.switchboard.model.GatewayException}
 * whose {@code param} is the JSON path of the offending field.
 */
public final class Responses {
    /** The format's name, for {@link dev.switchboard.model.Passthrough} and signature origins. */
    public static final String FORMAT = "responses";

    private Responses() {
    }

    /** Reads a request body. @throws dev.switchboard.model.GatewayException 400 on invalid input */
    public static ResponsesRequest fromClient(JsonNode body) {
        return ResponsesRequestReader.read(body);
    }

    /** Parses and reads a request body; malformed JSON is a 400 too. */
    public static ResponsesRequest fromClient(byte[] body) {
        return ResponsesRequestReader.read(Json.parse(body));
    }

    /** The items with an id each: ids the caller gave are kept, missing ones come from {@code ids}. */
    public static List<ResponsesItem> withIds(List<ResponsesItem> items, ResponsesIdSource ids) {
        List<ResponsesItem> out = new ArrayList<>(items.size());
        for (ResponsesItem i : items) {
            out.add(i.id().isPresent() ? i : i.withId(ids.next(prefix(i))));
        }
        return out;
    }

    private static String prefix(ResponsesItem i) {
        return switch (i) {
            case ResponsesItem.Message m -> "msg";
            case ResponsesItem.FunctionCall c -> "fc";
            case ResponsesItem.FunctionCallOutput o -> "fco";
            case ResponsesItem.CustomToolCall c -> "ctc";
            case ResponsesItem.CustomToolCallOutput o -> "ctco";
            case ResponsesItem.Reasoning r -> "rs";
        };
    }

    /**
     * The canonical request for {@code request} continuing a conversation whose earlier items are
     * {@code history} (oldest first; empty for a new conversation): {@code instructions} then every
     * system or developer message become the system blocks, the items the turns, the request's
     * settings the rest.
     *
     * @throws dev.switchboard.model.GatewayException 400 when an input item repeats an item of the
     *     history, a call has no output, an output answers no call, or nothing but system text is left
     */
    public static ChatRequest toCanonical(ResponsesRequest request, List<ResponsesItem> history) {
        List<ResponsesConversation.Located> items = new ArrayList<>();
        history.forEach(i -> items.add(new ResponsesConversation.Located(i, ResponsesConversation.HISTORY)));
        Set<String> earlier = new HashSet<>();
        history.forEach(i -> i.id().ifPresent(earlier::add));
        for (int i = 0; i < request.input().size(); i++) {
            ResponsesItem item = request.input().get(i);
            // Callers that replay what previous_response_id already brings would send the model every turn twice.
            if (item.id().filter(earlier::contains).isPresent()) {
                throw GatewayError.invalid("input[" + i + "].id", "Duplicate item found with id "
                        + item.id().get() + ": it is already part of the conversation behind `previous_response_id`; "
                        + "remove it from `input`.").toException();
            }
            items.add(new ResponsesConversation.Located(item, "input[" + i + "]"));
        }
        ResponsesConversation.Result conversation = ResponsesConversation.build(items);
        if (conversation.messages().isEmpty()) {
            throw GatewayError.invalid("input", "`input` holds only system or developer messages; add a user "
                    + "message.").toException();
        }
        List<ContentBlock> system = new ArrayList<>();
        request.instructions().filter(s -> !s.isEmpty()).ifPresent(s -> system.add(ContentBlock.Text.of(s)));
        system.addAll(conversation.system());
        return request.settings().toBuilder().system(system).messages(conversation.messages()).build();
    }

    /** Renders a complete answer as a response object; {@code response.model()} is the model that answered. */
    public static ObjectNode toClient(ChatResponse response, ResponsesHeader header, ResponsesIdSource ids) {
        ResponsesOutcome outcome = ResponsesOutcome.of(response.stopReason(),
                response.content().stream().anyMatch(b -> b instanceof ContentBlock.Refusal));
        return ResponsesObject.build(header, response.model(), outcome.status(), outcome.incompleteReason(),
                Optional.empty(), ResponsesOutputItems.of(response.content(), response.logprobs(), "completed", ids,
                        ResponsesToolNames.fromEcho(header.echo().path("tools"))), Optional.of(response.usage()));
    }

    /** A writer for one streamed answer. */
    public static ResponsesStreamWriter streamWriter(ResponsesHeader header, ResponsesIdSource ids) {
        return new ResponsesStreamWriter(header, ids);
    }

    /** Canonical field names as this format spells them, for errors the pipeline raised. */
    static final Map<String, String> PARAM_NAMES = Map.of(
            "messages", "input",
            "system", "instructions",
            "max_tokens", "max_output_tokens",
            "response_format", "text.format",
            "reasoning_effort", "reasoning.effort");

    /**
     * The error envelope, the same as chat completions' ({@code code} is the status as text), with a
     * canonical field name in {@code param} spelt as this format spells it ({@code messages} is {@code input}).
     */
    public static ObjectNode errorBody(GatewayError error) {
        return ErrorEnvelope.body(error.withParamNames(PARAM_NAMES));
    }

    /**
     * Renders {@code request} for a Responses upstream.
     *
     * @param upstreamModel the provider's name for the model
     * @param stream        whether to ask for the named-event stream
     * @param options       what the model accepts (reasoning controls, sampling parameters)
     */
    public static ObjectNode toUpstream(ChatRequest request, String upstreamModel, boolean stream,
                                        ResponsesUpstreamOptions options) {
        return ResponsesUpstreamRequestWriter.write(request, upstreamModel, stream, options);
    }

    /**
     * What {@link #toUpstream} leaves out of {@code request}: other formats' fields, by name, except the
     * chat-completions fields that mean the same here.
     */
    public static List<String> notCarried(ChatRequest request) {
        return ResponsesUpstreamRequestWriter.notCarried(request);
    }

    /**
     * Reads a Responses upstream's whole answer, applying {@code stopSequences} (the format has no field
     * for them). {@code model} is the upstream's model name; the engine replaces it with the gateway's.
     *
     * @throws dev.switchboard.model.GatewayException the response's error when it failed; a retryable 502
     *     when the body is not a response object
     */
    public static ChatResponse fromUpstream(JsonNode body, List<String> stopSequences) {
        return ResponsesUpstreamResponseReader.read(body, stopSequences);
    }

    /** A parser for one upstream stream, applying {@code stopSequences}. */
    public static ResponsesUpstreamStreamParser upstreamStreamParser(List<String> stopSequences) {
        return new ResponsesUpstreamStreamParser(stopSequences);
    }

    /** The error of a failed upstream call (the chat-completions envelope); retryable per its status. */
    public static GatewayError errorFromUpstream(int status, byte[] body) {
        return ResponsesUpstreamErrors.fromHttp(status, body);
    }

    /** Reads one item (stored or sent); {@code path} names it in errors. */
    public static ResponsesItem readItem(JsonNode json, String path) {
        return ResponsesItemReader.item(json, path);
    }

    /** Renders one item in the SDKs' shape. */
    public static ObjectNode writeItem(ResponsesItem item) {
        return ResponsesItemWriter.write(item);
    }

    /** The {@code output} items of a response object, read back for continuing its conversation. */
    public static List<ResponsesItem> outputItems(JsonNode response) {
        JsonNode output = response.path("output");
        List<ResponsesItem> out = new ArrayList<>();
        for (int i = 0; i < output.size(); i++) {
            out.add(ResponsesItemReader.item(output.get(i), "output[" + i + "]"));
        }
        return out;
    }

    /** {@code DELETE /v1/responses/{id}}'s answer. */
    public static ObjectNode deleted(String id) {
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("object", "response");
        o.put("deleted", true);
        return o;
    }

    /** A page of {@code GET /v1/responses/{id}/input_items}: {@code {object: list, data, first_id, last_id, has_more}}. */
    public static ObjectNode itemList(List<ResponsesItem> page, boolean hasMore) {
        ObjectNode o = Json.object();
        o.put("object", "list");
        ArrayNode data = o.putArray("data");
        page.forEach(i -> data.add(ResponsesItemWriter.write(i)));
        o.put("first_id", page.isEmpty() ? null : page.getFirst().id().orElse(null));
        o.put("last_id", page.isEmpty() ? null : page.getLast().id().orElse(null));
        o.put("has_more", hasMore);
        return o;
    }
}
