package dev.switchboard.wire.gemini;

import dev.switchboard.model.StopReason;
import java.util.Set;

/**
 * {@code finishReason} both ways. Gemini has no tool-use reason (a function-call answer ends with
 * {@code STOP}) and no stop-sequence reason, so those are recovered from the content where possible.
 */
final class GeminiFinishReasons {
    /** Google's reasons that mean the content was blocked or cut by a policy. */
    private static final Set<String> REFUSALS = Set.of("SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT",
            "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION");

    private GeminiFinishReasons() {
    }

    /**
     * The client-facing value (spec 2.9: STOP, MAX_TOKENS, SAFETY, OTHER). A context-window overflow is
     * reported as MAX_TOKENS, as the chat-completions format reports it as {@code length}: the output was
     * cut for lack of room, which is not a plain stop.
     */
    static String toWire(StopReason reason) {
        return switch (reason) {
            case END_TURN, STOP_SEQUENCE, TOOL_USE -> "STOP";
            case MAX_TOKENS, CONTEXT_WINDOW_EXCEEDED -> "MAX_TOKENS";
            case REFUSAL -> "SAFETY";
            case PAUSE_TURN, OTHER -> "OTHER";
        };
    }

    /** An upstream value; {@code STOP} with function calls in the answer is {@link StopReason#TOOL_USE}. */
    static StopReason fromWire(String reason, boolean hasToolCalls) {
        if (reason.equals("STOP")) {
            return hasToolCalls ? StopReason.TOOL_USE : StopReason.END_TURN;
        }
        if (reason.equals("MAX_TOKENS")) {
            return StopReason.MAX_TOKENS;
        }
        return REFUSALS.contains(reason) ? StopReason.REFUSAL : StopReason.OTHER;
    }
}
