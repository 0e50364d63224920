package dev.switchboard.wire.anthropic;

import dev.switchboard.model.StopReason;

/** {@code stop_reason} values both ways; no reason is folded into another. */
final class AnthropicStopReasons {
    private AnthropicStopReasons() {
    }

    static String toWire(StopReason reason) {
        return switch (reason) {
            case END_TURN, OTHER -> "end_turn"; // OTHER: the generic value, as the model's contract asks
            case STOP_SEQUENCE -> "stop_sequence";
            case MAX_TOKENS -> "max_tokens";
            case TOOL_USE -> "tool_use";
            case REFUSAL -> "refusal";
            case PAUSE_TURN -> "pause_turn";
            case CONTEXT_WINDOW_EXCEEDED -> "model_context_window_exceeded";
        };
    }

    static StopReason fromWire(String reason) {
        return switch (reason) {
            case "end_turn" -> StopReason.END_TURN;
            case "stop_sequence" -> StopReason.STOP_SEQUENCE;
            case "max_tokens" -> StopReason.MAX_TOKENS;
            case "tool_use" -> StopReason.TOOL_USE;
            case "refusal" -> StopReason.REFUSAL;
            case "pause_turn" -> StopReason.PAUSE_TURN;
            case "model_context_window_exceeded" -> StopReason.CONTEXT_WINDOW_EXCEEDED;
            default -> StopReason.OTHER;
        };
    }
}
