package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * What a dialect read from a chat request: only the facts the scripted answer depends on, in no
 * provider's shape, so every dialect shares one {@link AnswerGenerator}.
 *
 * @param model              the upstream model as requested
 * @param lastUserText       text of the last user turn, empty when there is none
 * @param toolResult         content of the final message when it is a tool result
 * @param tools              tools the model may call now (empty when tools are absent or switched off)
 * @param forcedTool         the tool the caller forces, if any
 * @param maxTokens          the caller's output limit, if any
 * @param stop               stop strings, possibly empty
 * @param promptChars        characters of all message contents, the base of the prompt-token count
 * @param reasoningRequested whether the request itself asks for reasoning (e.g. {@code reasoning_effort})
 * @param answerSchema       the JSON schema a text answer must follow, when the request asks for JSON output
 *                           with a schema (the answer is then a JSON value filled from it)
 */
record Prompt(
        String model,
        String lastUserText,
        Optional<String> toolResult,
        List<ToolSpec> tools,
        Optional<String> forcedTool,
        Optional<Integer> maxTokens,
        List<String> stop,
        int promptChars,
        boolean reasoningRequested,
        Optional<JsonNode> answerSchema) {

    Prompt {
        tools = List.copyOf(tools);
        stop = List.copyOf(stop);
    }

    /** A callable tool: its name and the JSON schema of its arguments (an empty object when none). */
    record ToolSpec(String name, JsonNode parameters) {
    }
}
