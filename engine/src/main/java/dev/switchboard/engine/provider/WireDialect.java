package dev.switchboard.engine.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.ToolNames;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A {@link Dialect} whose reading side is its wire format's own functions, named once by the subclass: how an
 * answer, a stream and an error are read, what of a request the format does not carry, and its tool-name rule.
 * The subclass builds the call.
 */
abstract class WireDialect implements Dialect {
    private final ToolNames.Rule toolNames;
    private final BiFunction<Attempt, JsonNode, ChatResponse> answers;
    private final Function<Attempt, StreamParser> streams;
    private final BiFunction<Integer, byte[], GatewayError> errors;
    private final Function<Attempt, List<String>> notCarried;

    /**
     * @param answers    reads the parsed body of a successful non-streamed answer of the attempt
     * @param streams    a fresh parser for the attempt's streamed answer
     * @param errors     translates an error status and body
     * @param notCarried the request's fields the format's upstream does not get
     */
    WireDialect(ToolNames.Rule toolNames, BiFunction<Attempt, JsonNode, ChatResponse> answers,
                Function<Attempt, StreamParser> streams, BiFunction<Integer, byte[], GatewayError> errors,
                Function<Attempt, List<String>> notCarried) {
        this.toolNames = Objects.requireNonNull(toolNames, "toolNames");
        this.answers = Objects.requireNonNull(answers, "answers");
        this.streams = Objects.requireNonNull(streams, "streams");
        this.errors = Objects.requireNonNull(errors, "errors");
        this.notCarried = Objects.requireNonNull(notCarried, "notCarried");
    }

    @Override
    public final ChatResponse response(Attempt attempt, byte[] body) {
        return answers.apply(attempt, Json.parse(body));
    }

    @Override
    public final StreamParser streamParser(Attempt attempt) {
        return streams.apply(attempt);
    }

    @Override
    public final GatewayError error(int status, byte[] body) {
        return errors.apply(status, body);
    }

    @Override
    public final List<String> notCarried(Attempt attempt) {
        return notCarried.apply(attempt);
    }

    @Override
    public final ToolNames.Rule toolNames() {
        return toolNames;
    }
}
