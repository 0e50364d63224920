package dev.switchboard.wire.openai;

import dev.switchboard.model.StopReason;

/** Stop reasons to and from {@code finish_reason}. */
final class OpenAiFinishReasons {
    private OpenAiFinishReasons() {
    }

    /**
     * The chat-completions value. The format has no word for a paused server-tool turn or an unknown
     * reason, so those read as {@code stop}; a context overflow is a length stop, never a plain stop.
     */
    static String toWire(StopReason reason) {
        return switch (reason) {
            case END_TURN, STOP_SEQUENCE, PAUSE_TURN, OTHER -> "stop";
            case MAX_TOKENS, CONTEXT_WINDOW_EXCEEDED -> "length";
            case TOOL_USE -> "tool_calls";
            case REFUSAL -> "content_filter";
        };
    }

    /**
     * The value for an answer that {@code showsRefusal} in its {@code refusal} field: {@code stop}, as OpenAI
     * answers a refusal (the field says it); a refusal without one (a provider's safety stop) stays
     * {@code content_filter}.
     */
    static String toWire(StopReason reason, boolean showsRefusal) {
        return reason == StopReason.REFUSAL && showsRefusal ? "stop" : toWire(reason);
    }

    /** The canonical reason of an upstream {@code finish_reason}; unknown values are {@link StopReason#OTHER}. */
    static StopReason fromWire(String finishReason) {
        return switch (finishReason) {
            case "stop", "eos", "end_turn" -> StopReason.END_TURN;
            case "length", "max_tokens" -> StopReason.MAX_TOKENS;
            case "tool_calls", "function_call", "tool_use" -> StopReason.TOOL_USE;
            case "content_filter" -> StopReason.REFUSAL;
            default -> StopReason.OTHER;
        };
    }
}
