package dev.switchboard.wire.responses;

import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Signature;
import dev.switchboard.model.TokenLogprob;
import dev.switchboard.wire.internal.FreeformTools;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Canonical answer blocks as output items, one item per block in block order: text is an assistant
 * message, a refusal an assistant message with one {@code refusal} part, a trace a reasoning item (its text as the summary, its signature in
 * {@code encrypted_content}), redacted reasoning a reasoning item with only {@code encrypted_content},
 * a tool call a {@code function_call} whose {@code call_id} is the canonical call id (a
 * {@code custom_tool_call} for a custom tool, and the tool's {@code namespace} on calls of namespaced tools:
 * {@link ResponsesToolNames}). A signature that
 * sat on a text or a call (Gemini) follows that item as a reasoning item of its own, the format's only
 * carrier of opaque state. Other blocks have no output item and are left out.
 */
final class ResponsesOutputItems {
    private ResponsesOutputItems() {
    }

    static List<ResponsesItem> of(List<ContentBlock> blocks, String status, ResponsesIdSource ids, ResponsesToolNames names) {
        return of(blocks, List.of(), status, ids, names);
    }

    /** As above; the answer's token {@code logprobs} go on its first text (the answer's text tokens, in order). */
    static List<ResponsesItem> of(List<ContentBlock> blocks, List<TokenLogprob> logprobs, String status,
                                  ResponsesIdSource ids, ResponsesToolNames names) {
        List<ResponsesItem> out = new ArrayList<>();
        List<TokenLogprob> unshown = logprobs;
        for (ContentBlock b : blocks) {
            switch (b) {
                case Text t -> {
                    out.add(new ResponsesItem.Message(Optional.of(ids.next("msg")), ResponsesItem.Role.ASSISTANT,
                            List.of(new ResponsesPart.OutputText(t.text(), unshown)), status));
                    unshown = List.of();
                    t.signature().ifPresent(s -> out.add(signatureItem(ids.next("rs"), new ResponsesReasoningPayload.OnText(s))));
                }
                case ContentBlock.Refusal r -> out.add(new ResponsesItem.Message(Optional.of(ids.next("msg")),
                        ResponsesItem.Role.ASSISTANT, List.of(new ResponsesPart.Refusal(r.text())), status));
                case Thinking t -> out.add(reasoning(ids.next("rs"), t));
                case RedactedThinking r -> out.add(signatureItem(ids.next("rs"),
                        new ResponsesReasoningPayload.Redacted(r.data(), r.origin())));
                case ToolCall c -> {
                    out.add(call(c.id(), c.name(), c.argumentsJson(), "completed", names, ids));
                    c.signature().ifPresent(s -> out.add(signatureItem(ids.next("rs"),
                            new ResponsesReasoningPayload.OnCall(c.id(), s))));
                }
                default -> {
                    // Images, documents and other formats' blocks have no output item in this format.
                }
            }
        }
        return out;
    }

    /**
     * A call item: {@code custom_tool_call} for a custom tool, {@code function_call} (with its
     * {@code namespace} when it has one) for a function.
     */
    static ResponsesItem call(String callId, String name, String arguments, String status, ResponsesToolNames names,
                              ResponsesIdSource ids) {
        return callWithId(callId, name, arguments, status, names, names.origin(name)
                .filter(ResponsesToolNames.Origin::custom).isPresent() ? ids.next("ctc") : ids.next("fc"));
    }

    static ResponsesItem callWithId(String callId, String name, String arguments, String status, ResponsesToolNames names,
                                    String itemId) {
        Optional<ResponsesToolNames.Origin> origin = names.origin(name);
        if (origin.isEmpty()) {
            return new ResponsesItem.FunctionCall(Optional.of(itemId), callId, name, arguments, status);
        }
        ResponsesToolNames.Origin o = origin.get();
        return o.custom()
                ? new ResponsesItem.CustomToolCall(Optional.of(itemId), callId, o.namespace(), o.name(),
                        FreeformTools.inputOf(arguments), status)
                : new ResponsesItem.FunctionCall(Optional.of(itemId), callId, o.name(), arguments, status, o.namespace());
    }

    static ResponsesItem.Message message(String id, String text, String status) {
        return new ResponsesItem.Message(Optional.of(id), ResponsesItem.Role.ASSISTANT, List.of(new ResponsesPart.OutputText(text)), status);
    }

    static ResponsesItem.Reasoning reasoning(String id, Thinking t) {
        return new ResponsesItem.Reasoning(Optional.of(id), t.text().isEmpty() ? List.of() : List.of(t.text()), List.of(),
                t.signature().map(ResponsesOutputItems::own));
    }

    /** A trace's own signature; one the Responses format itself issued goes back exactly as it came. */
    static String own(Signature s) {
        return ResponsesReasoningPayload.encode(s.isFrom(Responses.FORMAT) ? new ResponsesReasoningPayload.Foreign(s.value())
                : new ResponsesReasoningPayload.Own(s));
    }

    static ResponsesItem.Reasoning signatureItem(String id, ResponsesReasoningPayload payload) {
        return new ResponsesItem.Reasoning(Optional.of(id), List.of(), List.of(), Optional.of(ResponsesReasoningPayload.encode(payload)));
    }
}
