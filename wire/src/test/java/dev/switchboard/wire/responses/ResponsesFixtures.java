package dev.switchboard.wire.responses;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.testing.FixtureCase;
import dev.switchboard.wire.testing.FixtureFormat;
import dev.switchboard.wire.testing.FixtureRunner;
import dev.switchboard.wire.testing.Golden;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The golden fixtures of the Responses format ({@code fixtures/responses/}, run by {@link FixtureRunner}),
 * both sides: clients of {@code /v1/responses}, and upstreams of {@code type: openai-responses} (the
 * {@code upstream-*} cases, whose recorded answers and requests {@link ResponsesUpstreamSdkTest} also
 * checks against the OpenAI SDK's types). {@code history.json} holds the
 * items of a stored chain (as the engine stores them) that the request continues; {@code case.json} may
 * set the response {@code id} and {@code createdAt}; item ids come from a counter ({@code msg_1},
 * {@code rs_2}, ...). Besides the goldens: a rendered answer read back as a replayed conversation is the
 * same turn again, and a stream's frames are numbered, named after their type, and end in the same
 * response the plain answer gives.
 */
public final class ResponsesFixtures implements FixtureFormat.Checks {

    /** The format as the fixture runner drives it. */
    public static final FixtureFormat FORMAT = new FixtureFormat("responses",
            ResponsesFixtures::fromClient,
            Responses::errorBody,
            ResponsesFixtures::toUpstream,
            (c, body) -> Responses.fromUpstream(body, stops(c)),
            Responses::errorFromUpstream,
            c -> {
                ResponsesUpstreamStreamParser parser = Responses.upstreamStreamParser(stops(c));
                return FixtureFormat.StreamParser.of(parser::onEvent, parser::onEnd);
            },
            (c, response) -> Responses.toClient(response, header(c), new ResponsesCountingIds()),
            c -> Responses.streamWriter(header(c), new ResponsesCountingIds()),
            new ResponsesFixtures());

    private ResponsesFixtures() {
    }

    private static ChatRequest fromClient(FixtureCase c, JsonNode body) {
        List<ResponsesItem> history = new ArrayList<>();
        if (c.has("history.json")) {
            JsonNode items = Golden.readJson(c.file("history.json"));
            for (int i = 0; i < items.size(); i++) {
                history.add(Responses.readItem(items.get(i), "history[" + i + "]"));
            }
        }
        return Responses.toCanonical(Responses.fromClient(body), history);
    }

    /**
     * {@code case.json} may set the {@code upstreamModel} and the model's {@code options} ({@code reasoning},
     * {@code temperature}, {@code topP}; all true by default).
     */
    private static Optional<JsonNode> toUpstream(FixtureCase c, ChatRequest request) {
        JsonNode o = c.config().path("options");
        ResponsesUpstreamOptions options = new ResponsesUpstreamOptions(o.path("reasoning").asBoolean(true),
                o.path("temperature").asBoolean(true), o.path("topP").asBoolean(true));
        return Optional.of(Responses.toUpstream(request, c.config().path("upstreamModel").asText("upstream-model"),
                request.stream(), options));
    }

    /** {@code case.json} may set the {@code stop} sequences the gateway applies to the answer. */
    static List<String> stops(FixtureCase c) {
        List<String> stops = new ArrayList<>();
        c.config().path("stop").forEach(s -> stops.add(s.asText()));
        return stops;
    }

    @Override
    public void checkResponse(FixtureCase c, Optional<JsonNode> upstream, ChatResponse canonical, JsonNode client) {
        // Read back as a replayed conversation, the answer is the same turn again, signatures included.
        List<ResponsesItem> output = Responses.outputItems(client);
        ChatRequest replay = Responses.toCanonical(minimalRequest(), withUserTurn(output));
        Message assistant = replay.messages().get(1);
        assertThat(assistant.role()).isEqualTo(Role.ASSISTANT);
        assertThat(assistant.content()).as("output items read back").isEqualTo(renderable(canonical.content()));
    }

    @Override
    public void checkStream(FixtureCase c, Optional<String> upstream, List<StreamEvent> events, String client) {
        List<SseEvent> frames = Golden.events(client);
        for (int i = 0; i < frames.size(); i++) {
            JsonNode data = Json.parse(frames.get(i).data());
            assertThat(frames.get(i).event()).as("event name of frame %d", i).contains(data.path("type").asText());
            assertThat(data.path("sequence_number").asInt(-1)).as("sequence_number of frame %d", i).isEqualTo(i);
        }
        assertThat(Json.parse(frames.getFirst().data()).path("type").asText()).isEqualTo("response.created");

        ResponsesStreamWriter writer = Responses.streamWriter(header(c), new ResponsesCountingIds());
        events.forEach(writer::write);
        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        if (acc.complete()) {
            ObjectNode plain = Responses.toClient(acc.response(), header(c), new ResponsesCountingIds());
            assertThat(writer.terminalResponse()).as("streamed and plain answers agree").contains(plain);
        }
    }

    private static ResponsesHeader header(FixtureCase c) {
        ObjectNode echo = c.has("client-request.json") && !c.has("client-error.json")
                ? Responses.fromClient(Golden.readJson(c.file("client-request.json"))).echo() : minimalRequest().echo();
        return new ResponsesHeader(c.config().path("id").asText("resp_fixture"),
                c.config().path("createdAt").asLong(1_700_000_000L), echo);
    }

    private static ResponsesRequest minimalRequest() {
        return Responses.fromClient("{\"model\":\"m\",\"input\":\"hi\"}".getBytes(StandardCharsets.UTF_8));
    }

    /** A question, then the answer's items, then an output for each call so the conversation is complete. */
    private static List<ResponsesItem> withUserTurn(List<ResponsesItem> output) {
        List<ResponsesItem> items = new ArrayList<>();
        items.add(Responses.readItem(Json.parse("{\"role\":\"user\",\"content\":\"question\"}"), "q"));
        items.addAll(output);
        for (ResponsesItem i : output) {
            if (i instanceof ResponsesItem.FunctionCall c) {
                items.add(new ResponsesItem.FunctionCallOutput(Optional.empty(), c.callId(),
                        new ResponsesItem.ToolOutput.Text("ok"), "completed"));
            } else if (i instanceof ResponsesItem.CustomToolCall c) {
                items.add(new ResponsesItem.CustomToolCallOutput(Optional.empty(), c.callId(),
                        new ResponsesItem.ToolOutput.Text("ok"), "completed"));
            }
        }
        return items;
    }

    /** The blocks the format can show: text, refusals, traces, redacted traces and calls. */
    private static List<ContentBlock> renderable(List<ContentBlock> blocks) {
        return blocks.stream().filter(b -> b instanceof ContentBlock.Text || b instanceof ContentBlock.Refusal
                || b instanceof ContentBlock.RedactedThinking
                || b instanceof ContentBlock.ToolCall
                // A trace with neither text nor signature carries nothing and is not read back.
                || b instanceof ContentBlock.Thinking t && (!t.text().isEmpty() || t.signature().isPresent())).toList();
    }
}
