package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * An answer as a client driver read it, whatever its format: enough for the per-feature checks.
 *
 * @param status    the HTTP status
 * @param text      the answer's text, concatenated (never null, empty when there was none)
 * @param toolCalls the function calls, in order, with their arguments parsed (a text node when they were
 *                  not JSON)
 * @param reasoning the reasoning trace in the format's reasoning field, concatenated (empty when none)
 * @param finish    why the answer ended, normalised
 * @param usage     whether the answer reported token usage
 * @param problems  what the driver found wrong in the answer's framing (a stream without its end marker,
 *                  an error event, an unparseable frame...)
 * @param body      the raw response body, for failure messages
 */
record Result(int status, String text, List<ToolCall> toolCalls, String reasoning, Finish finish, boolean usage,
              List<String> problems, String body) {

    Result {
        toolCalls = List.copyOf(toolCalls);
        problems = List.copyOf(problems);
    }

    /** A function call: the name and the arguments. */
    record ToolCall(String name, JsonNode arguments) {
    }

    /** The finish reasons the formats have in common. */
    enum Finish {
        STOP, TOOL_CALLS, LENGTH, OTHER, MISSING
    }
}
