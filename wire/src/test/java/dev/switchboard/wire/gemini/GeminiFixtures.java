package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.testing.FixtureCase;
import dev.switchboard.wire.testing.FixtureFormat;
import dev.switchboard.wire.testing.FixtureRunner;
import dev.switchboard.wire.testing.Golden;
import java.util.List;
import java.util.Optional;

/**
 * The golden fixtures of the content-parts format ({@code fixtures/gemini/}, run by {@link FixtureRunner}).
 * Besides the runner's chains: cases whose name starts with {@code thinking-} also render
 * {@code upstream-request.thinking-budget.json} with {@link GeminiUpstreamOptions.EffortMapping#THINKING_BUDGET};
 * every client stream is also rendered as Google's JSON array ({@code client-stream-array.json}), which must
 * carry the same chunks as the SSE one. A case, or a row of the validation table, may set the {@code model} of
 * the path.
 */
public final class GeminiFixtures implements FixtureFormat.Checks {
    static final String MODEL = "gemini-2.5-flash";

    /** The format as the fixture runner drives it. */
    public static final FixtureFormat FORMAT = new FixtureFormat("gemini",
            (c, body) -> Gemini.fromClient(c.config().path("model").asText(MODEL), body),
            Gemini::errorBody,
            (c, request) -> Optional.of(Gemini.toUpstream(request)),
            (c, body) -> Gemini.fromUpstream(body),
            Gemini::errorFromUpstream,
            c -> {
                GeminiUpstreamStreamParser parser = new GeminiUpstreamStreamParser();
                return FixtureFormat.StreamParser.of(parser::onEvent, parser::onEnd);
            },
            (c, response) -> Gemini.toClient(response, MODEL),
            c -> new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.SSE, MODEL),
            new GeminiFixtures());

    private GeminiFixtures() {
    }

    @Override
    public void checkRequest(FixtureCase c, Optional<JsonNode> client, ChatRequest canonical, Optional<JsonNode> upstream) {
        if (c.name().startsWith("thinking-")) {
            Golden.json(c.file("upstream-request.thinking-budget.json"), Gemini.toUpstream(canonical,
                    new GeminiUpstreamOptions(GeminiUpstreamOptions.EffortMapping.THINKING_BUDGET)));
        }
    }

    @Override
    public void checkStream(FixtureCase c, Optional<String> upstream, List<StreamEvent> events, String client) {
        List<SseEvent> sse = Golden.events(client);
        for (SseEvent e : sse) {
            assertThat(Json.parse(e.data()).isObject()).as("every SSE event is one JSON object").isTrue();
        }
        String array = render(events, GeminiClientStreamWriter.Mode.JSON_ARRAY);
        Golden.text(c.file("client-stream-array.json"), array);
        JsonNode parsed = Json.parse(array);
        assertThat(parsed.isArray()).as("the array stream is one JSON array").isTrue();
        assertThat(parsed.size()).as("both framings carry the same chunks").isEqualTo(sse.size());
    }

    /** The canonical events of an upstream stream fed {@code chunk} bytes at a time. */
    static List<StreamEvent> parseStream(byte[] sse, int chunk) {
        return FixtureRunner.parseUpstream(FORMAT, FixtureCase.NONE, sse, chunk);
    }

    static String render(List<StreamEvent> events, GeminiClientStreamWriter.Mode mode) {
        GeminiClientStreamWriter writer = new GeminiClientStreamWriter(mode, MODEL);
        return FixtureRunner.render(writer, events) + writer.finish();
    }

    static ChatResponse accumulate(List<StreamEvent> events) {
        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        return acc.response();
    }
}
