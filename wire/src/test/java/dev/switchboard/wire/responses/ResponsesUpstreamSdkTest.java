package dev.switchboard.wire.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.ObjectMappers;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.testing.CanonicalJson;
import dev.switchboard.wire.testing.FixtureCase;
import dev.switchboard.wire.testing.Golden;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The official OpenAI Java SDK's Responses types as the judge of the upstream fixtures: every request
 * the gateway renders must be a valid create body, and every recorded answer and stream event the
 * parsers are tested on must be something OpenAI's own types accept, so the fixtures cannot drift from
 * the real wire. A whole stream, accumulated by the SDK's own helper, must read as the same answer as
 * the fixture's whole response.
 */
class ResponsesUpstreamSdkTest {

    static Stream<Arguments> cases() {
        return Golden.cases("responses").stream()
                .map(p -> Arguments.of(Named.of(p.getFileName().toString(), p)));
    }

    /** The case's {@code name} file; a case without one has nothing to check in that test, which is skipped. */
    private static Path caseFile(Path dir, String name) {
        Path file = dir.resolve(name);
        assumeTrue(Files.exists(file), () -> "the case has no " + name);
        return file;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void requestsAreValidCreateBodies(Path dir) throws Exception {
        Path file = caseFile(dir, "upstream-request.json");
        ObjectNode body = (ObjectNode) Golden.readJson(file);
        for (JsonNode item : body.path("input")) {
            assertThat(item.has("id")).as("input items carry no id (nothing is stored upstream): %s", item).isFalse();
            if (item.path("type").asText().equals("reasoning")) {
                // The SDK's type makes the id required; the API takes reasoning items without one when they
                // carry their encrypted content (stateless use, as OpenAI's own Codex sends them).
                ((ObjectNode) item).put("id", "rs_placeholder");
            }
            if (item.path("type").asText().equals("message") && item.path("content").isArray()
                    && item.path("role").asText().equals("assistant")) {
                // Likewise an assistant message with output parts (a refusal): the SDK's type wants an id and a
                // status, the API takes it without (Codex sends its history so, with store: false).
                ((ObjectNode) item).put("id", "msg_placeholder").put("status", "completed");
            }
        }
        ResponseCreateParams.Body parsed = ObjectMappers.jsonMapper().readValue(Json.write(body), ResponseCreateParams.Body.class);
        parsed.validate();
        assertThat(parsed.store()).contains(false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void recordedAnswersAreValidResponses(Path dir) throws Exception {
        Path file = caseFile(dir, "upstream-response.json");
        ObjectMappers.jsonMapper().readValue(Golden.read(file), Response.class).validate();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void recordedStreamsAreValidEventsAndAccumulateToTheWholeAnswer(Path dir) throws Exception {
        Path file = caseFile(dir, "upstream-stream.sse");
        List<SseEvent> events = Golden.events(Golden.read(file));
        ResponseAccumulator accumulator = ResponseAccumulator.create();
        for (SseEvent e : events) {
            ResponseStreamEvent event = ObjectMappers.jsonMapper().readValue(e.data(), ResponseStreamEvent.class);
            event.validate();
            assertThat(e.event()).as("event name").contains(Json.parse(e.data()).path("type").asText());
            accumulator.accumulate(event);
        }
        Path whole = dir.resolve("canonical-response.json");
        boolean terminal = events.getLast().data().contains("\"response.completed\"")
                || events.getLast().data().contains("\"response.incomplete\"");
        if (terminal && Files.exists(whole)) {
            Response accumulated = accumulator.response();
            JsonNode config = Files.exists(dir.resolve("case.json")) ? Golden.readJson(dir.resolve("case.json")) : Json.object();
            ChatResponse read = Responses.fromUpstream(Json.parse(ObjectMappers.jsonMapper().writeValueAsString(accumulated)),
                    ResponsesFixtures.stops(new FixtureCase(dir, config)));
            assertThat(read).isEqualTo(CanonicalJson.response(Golden.readJson(whole)));
        }
    }
}
