package dev.switchboard.wire.responses;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.testing.CanonicalJson;
import dev.switchboard.wire.testing.Golden;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden fixtures of the Responses format, {@code fixtures/responses/<case>/}, along three chains:
 * <pre>
 *   [history.json +] client-request.json -> canonical-request.json   (or client-error.json)
 *   canonical-response.json -> client-response.json                   (+ its output read back)
 *   canonical-events.jsonl  -> client-stream.sse                      (+ parity with the plain answer)
 * </pre>
 * {@code history.json} holds the items of a stored chain (as the engine stores them) that the request
 * continues. {@code case.json} optionally sets the response {@code id} and {@code createdAt}. Item ids
 * come from a counter ({@code msg_1}, {@code rs_2}, ...). Run with {@code -Dfixtures.update=true} to
 * rewrite the goldens, then review the diff.
 */
class ResponsesFixtureTest {
    private static final String FORMAT = "responses";

    static Stream<Arguments> cases() {
        return Golden.cases(FORMAT).stream().map(p -> Arguments.of(Named.of(p.getFileName().toString(), p)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fixture(Path dir) {
        JsonNode cfg = Files.exists(dir.resolve("case.json")) ? Golden.readJson(dir.resolve("case.json")) : Json.object();
        boolean ran = requestChain(dir);
        ran |= responseChain(dir, cfg);
        ran |= streamChain(dir, cfg);
        assertThat(ran).as("case %s has no input file", dir.getFileName()).isTrue();
    }

    private static boolean requestChain(Path dir) {
        Path file = dir.resolve("client-request.json");
        if (!Files.exists(file)) {
            return false;
        }
        List<ResponsesItem> history = new ArrayList<>();
        if (Files.exists(dir.resolve("history.json"))) {
            JsonNode items = Golden.readJson(dir.resolve("history.json"));
            for (int i = 0; i < items.size(); i++) {
                history.add(Responses.readItem(items.get(i), "history[" + i + "]"));
            }
        }
        ChatRequest canonical;
        try {
            ResponsesRequest request = Responses.fromClient(Golden.readJson(file));
            canonical = Responses.toCanonical(request, history);
        } catch (GatewayException e) {
            assertThat(dir.resolve("canonical-request.json")).as("request was expected to be valid").doesNotExist();
            Golden.json(dir.resolve("client-error.json"), Responses.errorBody(e.error()));
            return true;
        }
        JsonNode tree = CanonicalJson.tree(canonical);
        assertThat(CanonicalJson.request(tree)).as("canonical codec is lossless").isEqualTo(canonical);
        Golden.json(dir.resolve("canonical-request.json"), tree);
        return true;
    }

    private static boolean responseChain(Path dir, JsonNode cfg) {
        Path file = dir.resolve("canonical-response.json");
        if (!Files.exists(file)) {
            return false;
        }
        ChatResponse canonical = CanonicalJson.response(Golden.readJson(file));
        ObjectNode client = Responses.toClient(canonical, header(dir, cfg), new ResponsesCountingIds());
        Golden.json(dir.resolve("client-response.json"), client);

        // Read back as a replayed conversation, the answer is the same turn again, signatures included.
        List<ResponsesItem> output = Responses.outputItems(client);
        ChatRequest replay = Responses.toCanonical(minimalRequest(), withUserTurn(output));
        Message assistant = replay.messages().get(1);
        assertThat(assistant.role()).isEqualTo(Role.ASSISTANT);
        assertThat(assistant.content()).as("output items read back").isEqualTo(renderable(canonical.content()));
        return true;
    }

    private static boolean streamChain(Path dir, JsonNode cfg) {
        Path file = dir.resolve("canonical-events.jsonl");
        if (!Files.exists(file)) {
            return false;
        }
        List<StreamEvent> events = Golden.read(file).lines().filter(l -> !l.isBlank())
                .map(l -> CanonicalJson.event(Json.parse(l))).toList();
        ResponsesStreamWriter writer = Responses.streamWriter(header(dir, cfg), new ResponsesCountingIds());
        StringBuilder sse = new StringBuilder();
        events.forEach(e -> sse.append(writer.write(e)));
        Golden.sse(dir.resolve("client-stream.sse"), sse.toString());

        List<SseEvent> frames = Golden.events(sse.toString());
        for (int i = 0; i < frames.size(); i++) {
            JsonNode data = Json.parse(frames.get(i).data());
            assertThat(frames.get(i).event()).as("event name of frame %d", i).contains(data.path("type").asText());
            assertThat(data.path("sequence_number").asInt(-1)).as("sequence_number of frame %d", i).isEqualTo(i);
        }
        assertThat(Json.parse(frames.getFirst().data()).path("type").asText()).isEqualTo("response.created");

        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        if (acc.complete()) {
            ChatResponse whole = acc.response();
            ObjectNode plain = Responses.toClient(whole, header(dir, cfg), new ResponsesCountingIds());
            assertThat(writer.terminalResponse()).as("streamed and plain answers agree").contains(plain);
        }
        return true;
    }

    private static ResponsesHeader header(Path dir, JsonNode cfg) {
        Path request = dir.resolve("client-request.json");
        ObjectNode echo = Files.exists(request) && !Files.exists(dir.resolve("client-error.json"))
                ? Responses.fromClient(Golden.readJson(request)).echo() : minimalRequest().echo();
        return new ResponsesHeader(cfg.path("id").asText("resp_fixture"), cfg.path("createdAt").asLong(1_700_000_000L), echo);
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
                items.add(new ResponsesItem.FunctionCallOutput(Optional.empty(), c.callId(), new ResponsesItem.ToolOutput.Text("ok"),
                        "completed"));
            }
        }
        return items;
    }

    /** The blocks the format can show: text, traces, redacted traces and calls. */
    private static List<ContentBlock> renderable(List<ContentBlock> blocks) {
        return blocks.stream().filter(b -> b instanceof ContentBlock.Text || b instanceof ContentBlock.RedactedThinking
                || b instanceof ContentBlock.ToolCall
                // A trace with neither text nor signature carries nothing and is not read back.
                || b instanceof ContentBlock.Thinking t && (!t.text().isEmpty() || t.signature().isPresent())).toList();
    }
}
