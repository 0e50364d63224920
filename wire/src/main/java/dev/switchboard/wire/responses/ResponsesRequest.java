package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated {@code POST /v1/responses} body.
 *
 * @param model the model id as the caller gave it
 * @param input the request's own input items (a string input is one user message); ids are empty
 *     where the caller gave none, until the engine assigns them
 * @param instructions system text for this request only (not inherited along a chain)
 * @param previousResponseId the stored response this one continues, if any
 * @param store whether the response is stored (default true)
 * @param stream whether the caller wants server-sent events
 * @param settings everything the canonical request takes except system blocks and turns (tools, tool
 *     choice, sampling, limits, reasoning, output format, metadata...), which the engine completes
 *     from the conversation with {@link Responses#toCanonical}
 * @param echo the request's settings as the response object shows them ({@code tools},
 *     {@code tool_choice}, {@code text}, {@code reasoning}, {@code metadata}...); a copy is returned
 * @param droppedTools the hosted tools left out under their policy (web search), by type, for the response
 *     header that reports them; empty when none were
 */
public record ResponsesRequest(String model, List<ResponsesItem> input, Optional<String> instructions,
                               Optional<String> previousResponseId, boolean store, boolean stream,
                               ChatRequest settings, ObjectNode echo, List<String> droppedTools) {
    public ResponsesRequest {
        Objects.requireNonNull(model, "model");
        input = List.copyOf(input);
        droppedTools = List.copyOf(droppedTools);
        Objects.requireNonNull(instructions, "instructions");
        Objects.requireNonNull(previousResponseId, "previousResponseId");
        Objects.requireNonNull(settings, "settings");
        echo = echo.deepCopy();
    }

    @Override
    public ObjectNode echo() {
        return echo.deepCopy();
    }

    /** This request with its canonical settings replaced (fallback models and skills the edge took from headers). */
    public ResponsesRequest withSettings(ChatRequest newSettings) {
        return new ResponsesRequest(model, input, instructions, previousResponseId, store, stream, newSettings, echo,
                droppedTools);
    }

    /** This request with its input items replaced (the engine's copy with ids assigned). */
    public ResponsesRequest withInput(List<ResponsesItem> items) {
        return new ResponsesRequest(model, items, instructions, previousResponseId, store, stream, settings, echo,
                droppedTools);
    }
}
