package dev.switchboard.wire.responses;

import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.Signature;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Canonical answer blocks as output items, one item per block in block order: text is an assistant
 * message, a trace a reasoning item (its text as the summary, its signature in
 * {@code encrypted_content}), redacted reasoning a reasoning item with only {@code encrypted_content},
 * a tool call a {@code function_call} whose {@code call_id} is the canonical call id. A signature that
 * sat on a text or a call (Gemini) follows that item as a reasoning item of its own, the format's only
 * carrier of opaque state. Other blocks have no output item and are left out.
 */
final class OutputItems {
    private OutputItems() {
    }

    static List<Item> of(List<ContentBlock> blocks, String status, IdSource ids) {
        List<Item> out = new ArrayList<>();
        for (ContentBlock b : blocks) {
            switch (b) {
                case Text t -> {
                    out.add(message(ids.next("msg"), t.text(), status));
                    t.signature().ifPresent(s -> out.add(signatureItem(ids.next("rs"), new ReasoningPayload.OnText(s))));
                }
                case Thinking t -> out.add(reasoning(ids.next("rs"), t));
                case RedactedThinking r -> out.add(signatureItem(ids.next("rs"),
                        new ReasoningPayload.Redacted(r.data(), r.origin())));
                case ToolCall c -> {
                    out.add(new Item.FunctionCall(Optional.of(ids.next("fc")), c.id(), c.name(), c.argumentsJson(),
                            "completed"));
                    c.signature().ifPresent(s -> out.add(signatureItem(ids.next("rs"),
                            new ReasoningPayload.OnCall(c.id(), s))));
                }
                default -> {
                    // Images, documents and other formats' blocks have no output item in this format.
                }
            }
        }
        return out;
    }

    static Item.Message message(String id, String text, String status) {
        return new Item.Message(Optional.of(id), Item.Role.ASSISTANT, List.of(new Part.OutputText(text)), status);
    }

    static Item.Reasoning reasoning(String id, Thinking t) {
        return new Item.Reasoning(Optional.of(id), t.text().isEmpty() ? List.of() : List.of(t.text()), List.of(),
                t.signature().map(OutputItems::own));
    }

    /** A trace's own signature; one the Responses format itself issued goes back exactly as it came. */
    static String own(Signature s) {
        return ReasoningPayload.encode(s.isFrom(Responses.FORMAT) ? new ReasoningPayload.Foreign(s.value())
                : new ReasoningPayload.Own(s));
    }

    static Item.Reasoning signatureItem(String id, ReasoningPayload payload) {
        return new Item.Reasoning(Optional.of(id), List.of(), List.of(), Optional.of(ReasoningPayload.encode(payload)));
    }
}
