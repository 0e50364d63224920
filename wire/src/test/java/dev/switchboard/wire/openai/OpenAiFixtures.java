package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.testing.FixtureCase;
import dev.switchboard.wire.testing.FixtureFormat;
import dev.switchboard.wire.testing.FixtureRunner;
import java.util.List;
import java.util.Optional;

/**
 * The golden fixtures of the chat-completions format ({@code fixtures/openai/}, run by
 * {@link FixtureRunner}). {@code case.json} may set {@code upstreamModel}, {@code created} and the upstream
 * {@code options} ({@link OpenAiUpstreamOptions} by field name).
 */
public final class OpenAiFixtures {
    private static final long DEFAULT_CREATED = 1_700_000_000L;

    /** The format as the fixture runner drives it. */
    public static final FixtureFormat FORMAT = new FixtureFormat("openai",
            (c, body) -> OpenAi.fromClient(body),
            OpenAi::errorBody,
            (c, request) -> Optional.of(OpenAi.toUpstream(request, c.config().path("upstreamModel").asText("upstream-model"),
                    request.stream(), options(c.config().path("options")))),
            (c, body) -> OpenAi.fromUpstream(body),
            OpenAi::errorFromUpstream,
            c -> {
                OpenAiUpstreamStreamParser parser = new OpenAiUpstreamStreamParser();
                return FixtureFormat.StreamParser.of((event, data) -> parser.onData(data), parser::onEnd);
            },
            (c, response) -> OpenAi.toClient(response, created(c)),
            c -> new OpenAiClientStreamWriter(created(c)),
            FixtureFormat.Checks.NONE);

    private OpenAiFixtures() {
    }

    private static long created(FixtureCase c) {
        return c.config().path("created").asLong(DEFAULT_CREATED);
    }

    /** The canonical events of an upstream stream fed {@code chunk} bytes at a time, ended as the engine would. */
    static List<StreamEvent> parseUpstream(byte[] body, int chunk) {
        return FixtureRunner.parseUpstream(FORMAT, FixtureCase.NONE, body, chunk);
    }

    static OpenAiUpstreamOptions options(JsonNode o) {
        OpenAiUpstreamOptions d = OpenAiUpstreamOptions.DEFAULT;
        if (!o.isObject()) {
            return d;
        }
        return new OpenAiUpstreamOptions(
                OpenAiUpstreamOptions.MaxTokensField.valueOf(o.path("maxTokensField").asText(d.maxTokensField().name())),
                o.path("sendTopK").asBoolean(d.sendTopK()),
                o.path("echoReasoning").asBoolean(d.echoReasoning()),
                o.path("echoGeminiThoughtSignatures").asBoolean(d.echoGeminiThoughtSignatures()));
    }
}
