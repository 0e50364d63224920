package dev.switchboard.wire.responses;

import dev.switchboard.model.StopReason;
import java.util.Optional;

/**
 * A response's {@code status} and {@code incomplete_details.reason} for a canonical stop reason (section
 * 0's mapping): a normal end or a tool call is {@code completed}; a cut for length or context is
 * {@code incomplete / max_output_tokens}; a refusal is {@code completed} when the answer shows it in a
 * {@code refusal} part (as OpenAI answers one), else {@code incomplete / content_filter}; a paused
 * server-tool turn is {@code incomplete} without a reason the SDKs know, never a plain completion.
 */
record ResponsesOutcome(String status, Optional<String> incompleteReason) {
    static final ResponsesOutcome COMPLETED = new ResponsesOutcome("completed", Optional.empty());

    static ResponsesOutcome of(StopReason reason, boolean showsRefusal) {
        return reason == StopReason.REFUSAL && showsRefusal ? COMPLETED : of(reason);
    }

    static ResponsesOutcome of(StopReason reason) {
        return switch (reason) {
            case END_TURN, STOP_SEQUENCE, TOOL_USE, OTHER -> COMPLETED;
            case MAX_TOKENS, CONTEXT_WINDOW_EXCEEDED -> new ResponsesOutcome("incomplete", Optional.of("max_output_tokens"));
            case REFUSAL -> new ResponsesOutcome("incomplete", Optional.of("content_filter"));
            case PAUSE_TURN -> new ResponsesOutcome("incomplete", Optional.empty());
        };
    }

    /** The status of the items of a finished answer: an incomplete response ends with an incomplete item. */
    String itemStatus() {
        return status.equals("completed") ? "completed" : "incomplete";
    }
}
