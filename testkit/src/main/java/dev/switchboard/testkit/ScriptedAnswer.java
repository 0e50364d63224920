package dev.switchboard.testkit;

import java.util.List;
import java.util.Optional;

/**
 * The content of a scripted answer, before any dialect renders it. Text and reasoning are kept as the
 * pieces a stream sends one by one; each piece counts as one token.
 */
sealed interface ScriptedAnswer {

    /** Reasoning trace pieces, sent before the answer proper; empty when the model does not reason. */
    List<String> reasoning();

    Finish finish();

    /** Pieces concatenated, exactly as the client should reassemble them. */
    static String join(List<String> pieces) {
        return String.join("", pieces);
    }

    /** A text answer; {@code stopSequence} is the stop string that ended it, if one did. */
    record Text(List<String> pieces, List<String> reasoning, Finish finish, Optional<String> stopSequence)
            implements ScriptedAnswer {
        public Text {
            pieces = List.copyOf(pieces);
            reasoning = List.copyOf(reasoning);
        }

        String text() {
            return join(pieces);
        }
    }

    /** One or more tool calls and no text. */
    record ToolCalls(List<ToolCall> calls, List<String> reasoning) implements ScriptedAnswer {
        public ToolCalls {
            calls = List.copyOf(calls);
            reasoning = List.copyOf(reasoning);
        }

        @Override
        public Finish finish() {
            return Finish.TOOL_CALLS;
        }
    }

    /**
     * A tool call. {@code sequence} numbers calls across the server's lifetime; each dialect turns it into
     * an id of its own style ({@code call_<n>} for OpenAI).
     */
    record ToolCall(long sequence, String name, String arguments) {
    }

    /** Why the answer ended, in neutral terms. */
    enum Finish { STOP, LENGTH, TOOL_CALLS }
}
