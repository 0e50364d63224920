package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.testing.FixtureCase;
import dev.switchboard.wire.testing.FixtureFormat;
import dev.switchboard.wire.testing.FixtureRunner;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The golden fixtures of the chat-completions format ({@code fixtures/openai/}, run by
 * {@link FixtureRunner}). {@code case.json} may set {@code upstreamModel}, {@code created} and the upstream
 * {@code options} ({@link OpenAiUpstreamOptions} by field name).
 */
class OpenAiFixturesTest implements FixtureFormat {
    private static final long DEFAULT_CREATED = 1_700_000_000L;

    @TestFactory
    Stream<DynamicNode> fixtures() {
        return FixtureRunner.run(this);
    }

    @Override
    public String name() {
        return "openai";
    }

    @Override
    public ChatRequest fromClient(FixtureCase c, JsonNode body) {
        return OpenAi.fromClient(body);
    }

    @Override
    public ChatRequest fromClient(byte[] body, JsonNode row) {
        return OpenAi.fromClient(body);
    }

    @Override
    public JsonNode errorBody(GatewayError error) {
        return OpenAi.errorBody(error);
    }

    @Override
    public Optional<JsonNode> toUpstream(FixtureCase c, ChatRequest request) {
        String model = c.config().path("upstreamModel").asText("upstream-model");
        return Optional.of(OpenAi.toUpstream(request, model, request.stream(), options(c.config().path("options"))));
    }

    @Override
    public ChatResponse fromUpstream(FixtureCase c, JsonNode body) {
        return OpenAi.fromUpstream(body);
    }

    @Override
    public GatewayError errorFromUpstream(int status, byte[] body) {
        return OpenAi.errorFromUpstream(status, body);
    }

    @Override
    public StreamParser streamParser(FixtureCase c) {
        OpenAiUpstreamStreamParser parser = new OpenAiUpstreamStreamParser();
        return StreamParser.of((event, data) -> parser.onData(data), parser::onEnd);
    }

    @Override
    public JsonNode toClient(FixtureCase c, ChatResponse response) {
        return OpenAi.toClient(response, created(c));
    }

    @Override
    public String toClientStream(FixtureCase c, List<StreamEvent> events) {
        OpenAiClientStreamWriter writer = new OpenAiClientStreamWriter(created(c));
        StringBuilder sse = new StringBuilder();
        events.forEach(e -> sse.append(writer.write(e)));
        return sse.toString();
    }

    private static long created(FixtureCase c) {
        return c.config().path("created").asLong(DEFAULT_CREATED);
    }

    /** The canonical events of an upstream stream fed {@code chunk} bytes at a time, ended as the engine would. */
    static List<StreamEvent> parseUpstream(byte[] body, int chunk) {
        return FixtureRunner.parseUpstream(new OpenAiFixturesTest(), FixtureCase.NONE, body, chunk);
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
