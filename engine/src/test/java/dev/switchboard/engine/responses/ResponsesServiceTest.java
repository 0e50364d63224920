package dev.switchboard.engine.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.ChatPipeline;
import dev.switchboard.engine.pipeline.ClientGoneException;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.engine.route.FailoverRouter;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesRequest;
import dev.switchboard.wire.responses.ResponsesStreamWriter;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.sse.SseParser;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The service over the real chat pipeline and failover loop, with scripted providers of two kinds
 * (an "anthropic" and a "gemini" one) and an in-memory store: chains, provider changes, signatures,
 * visibility, deletion and streamed storage.
 */
class ResponsesServiceTest {
    private static final Signature THINKING_SIG = new Signature("anthropic", "EqQBsig");
    private static final Signature CALL_SIG = new Signature("gemini", "CiQBcall");

    private final ScriptedAdapter claude = new ScriptedAdapter();
    private final ScriptedAdapter gemini = new ScriptedAdapter();
    private final InMemoryResponseStore store = new InMemoryResponseStore();
    private final ResponsesService service;
    private final Caller alice = new Caller("usr_alice", "key_a", "default", List.of(), List.of());
    private final Caller bob = new Caller("usr_bob", "key_b", "default", List.of(), List.of());

    ResponsesServiceTest() {
        Capabilities all = new Capabilities(true, true, true, false, true);
        Catalog catalog = new Catalog(
                List.of(provider("claude", ProviderType.ANTHROPIC), provider("google", ProviderType.GEMINI)),
                List.of(model("claude-x", all, new RouteTarget("claude", "claude-upstream")),
                        model("gemini-x", all, new RouteTarget("google", "gemini-upstream"))));
        GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
        FailoverRouter router = new FailoverRouter(catalog,
                Map.of(ProviderType.ANTHROPIC, claude, ProviderType.GEMINI, gemini), metrics);
        service = new ResponsesService(new ChatPipeline(catalog, router, metrics), store, Clock.systemUTC());
    }

    private static ProviderConfig provider(String id, ProviderType type) {
        return new ProviderConfig(id, type, URI.create("http://127.0.0.1:1"), List.of("k"), Timeouts.DEFAULT, Map.of());
    }

    private static ModelEntry model(String id, Capabilities caps, RouteTarget target) {
        return new ModelEntry(id, List.of(), Optional.empty(), "test", 100_000, 4096, caps, ReasoningProfile.NONE,
                Pricing.FREE, List.of(), List.of(target));
    }

    private static ChatResponse answer(ContentBlock... blocks) {
        boolean calls = List.of(blocks).stream().anyMatch(b -> b instanceof ContentBlock.ToolCall);
        return new ChatResponse("up-1", "upstream", List.of(blocks), calls ? StopReason.TOOL_USE : StopReason.END_TURN,
                Optional.empty(), Usage.of(10, 5));
    }

    private static ResponsesRequest request(String json) {
        return Responses.fromClient(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Runs a plain turn the way the edge does: render the answer, store what was shown. */
    private ObjectNode create(Caller caller, String json) {
        ResponseTurn turn = service.begin(caller, request(json), new RequestTrace("req_t", "responses"));
        ObjectNode shown = Responses.toClient(turn.complete(), turn.header(), turn.ids());
        turn.store(shown);
        return shown;
    }

    private static final String TOOLS = "\"tools\": [{\"type\": \"function\", \"name\": \"get_weather\", "
            + "\"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}}]";

    @Test
    void aThreeTurnChainWithAToolCallMovesFromOneProviderToAnother() {
        claude.answer(answer(new ContentBlock.Thinking("Need the tool.", Optional.of(THINKING_SIG)),
                new ContentBlock.ToolCall("toolu_1", "get_weather", "{\"city\":\"Oslo\"}", Optional.empty())));
        ObjectNode first = create(alice, "{\"model\": \"claude-x\", \"input\": \"Weather in Oslo?\", " + TOOLS + "}");
        assertThat(first.at("/output/1/type").asText()).isEqualTo("function_call");
        assertThat(first.at("/output/1/call_id").asText()).isEqualTo("toolu_1");

        gemini.answer(answer(ContentBlock.Text.of("It is 4 degrees."),
                new ContentBlock.ToolCall("call_g", "get_weather", "{\"city\":\"Bergen\"}", Optional.of(CALL_SIG))));
        ObjectNode second = create(alice, """
                {"model": "gemini-x", "previous_response_id": "%s", %s,
                 "input": [{"type": "function_call_output", "call_id": "toolu_1", "output": "4C"}]}
                """.formatted(first.path("id").asText(), TOOLS));
        assertThat(second.path("model").asText()).isEqualTo("gemini-x");
        assertThat(second.path("previous_response_id").asText()).isEqualTo(first.path("id").asText());
        ChatRequest toGemini = gemini.last();
        assertThat(toGemini.messages()).extracting(Message::role).containsExactly(Role.USER, Role.ASSISTANT, Role.USER);
        ContentBlock.ToolResult result = (ContentBlock.ToolResult) toGemini.messages().get(2).content().getFirst();
        assertThat(result.name()).as("named from the stored call").contains("get_weather");

        claude.answer(answer(ContentBlock.Text.of("Bergen is wetter.")));
        ObjectNode third = create(alice, """
                {"model": "claude-x", "previous_response_id": "%s", %s,
                 "input": [{"type": "function_call_output", "call_id": "call_g", "output": "9C"},
                           {"role": "user", "content": "Which is wetter?"}]}
                """.formatted(second.path("id").asText(), TOOLS));
        assertThat(third.at("/output/0/content/0/text").asText()).isEqualTo("Bergen is wetter.");

        ChatRequest toClaude = claude.last();
        assertThat(toClaude.messages()).extracting(Message::role)
                .containsExactly(Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT, Role.USER);
        assertThat(toClaude.messages().get(1).content()).as("first turn, signature kept").containsExactly(
                new ContentBlock.Thinking("Need the tool.", Optional.of(THINKING_SIG)),
                new ContentBlock.ToolCall("toolu_1", "get_weather", "{\"city\":\"Oslo\"}", Optional.empty()));
        assertThat(toClaude.messages().get(3).content()).as("second turn, Gemini's call signature kept").containsExactly(
                ContentBlock.Text.of("It is 4 degrees."),
                new ContentBlock.ToolCall("call_g", "get_weather", "{\"city\":\"Bergen\"}", Optional.of(CALL_SIG)));
        assertThat(toClaude.messages().get(4).content()).extracting(b -> b.getClass().getSimpleName())
                .containsExactly("ToolResult", "Text");
    }

    @Test
    void instructionsAreNotInheritedButSystemMessagesAre() {
        claude.answer(answer(ContentBlock.Text.of("one"))).answer(answer(ContentBlock.Text.of("two")));
        ObjectNode first = create(alice, """
                {"model": "claude-x", "instructions": "Only for turn one.",
                 "input": [{"role": "developer", "content": "Always polite."}, {"role": "user", "content": "hi"}]}
                """);
        create(alice, "{\"model\": \"claude-x\", \"instructions\": \"Turn two.\", \"previous_response_id\": \""
                + first.path("id").asText() + "\", \"input\": \"again\"}");
        assertThat(claude.last().system()).containsExactly(ContentBlock.Text.of("Turn two."),
                ContentBlock.Text.of("Always polite."));
    }

    @Test
    void aPreviousResponseThatIsNotTheCallersToContinueIsA400NamingTheField() {
        claude.answer(answer(ContentBlock.Text.of("x"))).answer(answer(ContentBlock.Text.of("y")));
        String alices = create(alice, "{\"model\": \"claude-x\", \"input\": \"hi\"}").path("id").asText();
        String unstored = create(alice, "{\"model\": \"claude-x\", \"input\": \"hi\", \"store\": false}").path("id").asText();
        for (var attempt : List.of(Map.entry(bob, alices), Map.entry(alice, "resp_unknown"), Map.entry(alice, unstored))) {
            assertThatThrownBy(() -> service.begin(attempt.getKey(), request("{\"model\": \"claude-x\", \"input\": \"x\", "
                    + "\"previous_response_id\": \"" + attempt.getValue() + "\"}"), new RequestTrace("r", "responses")))
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.error().status()).isEqualTo(400);
                        assertThat(e.error().param()).contains("previous_response_id");
                        assertThat(e.error().message()).contains(attempt.getValue());
                    });
        }
    }

    @Test
    void aResponseIsVisibleOnlyToItsOwnerAndOnlyWhenStored() {
        claude.answer(answer(ContentBlock.Text.of("x"))).answer(answer(ContentBlock.Text.of("y")));
        ObjectNode stored = create(alice, "{\"model\": \"claude-x\", \"input\": \"hi\"}");
        String id = stored.path("id").asText();
        assertThat(service.retrieve(alice, id)).isEqualTo(stored);
        InputItemPage page = InputItemPage.of(Optional.empty(), Optional.empty(), Optional.empty());
        for (Runnable r : List.<Runnable>of(() -> service.retrieve(bob, id), () -> service.delete(bob, id),
                () -> service.inputItems(bob, id, page))) {
            assertThatThrownBy(r::run).isInstanceOfSatisfying(GatewayException.class,
                    e -> assertThat(e.error().status()).isEqualTo(404));
        }
        assertThat(service.retrieve(alice, id)).as("bob's attempts changed nothing").isEqualTo(stored);

        String unstored = create(alice, "{\"model\": \"claude-x\", \"input\": \"hi\", \"store\": false}").path("id").asText();
        assertThat(unstored).startsWith("resp_");
        assertThatThrownBy(() -> service.retrieve(alice, unstored)).isInstanceOf(GatewayException.class);
        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void deletingATurnHidesItButKeepsLaterTurnsContinuable() {
        claude.answer(answer(ContentBlock.Text.of("a1"))).answer(answer(ContentBlock.Text.of("a2")))
                .answer(answer(ContentBlock.Text.of("a3")));
        String r1 = create(alice, "{\"model\": \"claude-x\", \"input\": \"q1\"}").path("id").asText();
        String r2 = create(alice, "{\"model\": \"claude-x\", \"input\": \"q2\", \"previous_response_id\": \"" + r1 + "\"}")
                .path("id").asText();

        service.delete(alice, r1);
        assertThatThrownBy(() -> service.retrieve(alice, r1)).isInstanceOf(GatewayException.class);
        assertThatThrownBy(() -> service.delete(alice, r1)).isInstanceOf(GatewayException.class);
        assertThatThrownBy(() -> service.begin(alice, request("{\"model\": \"claude-x\", \"input\": \"x\", "
                + "\"previous_response_id\": \"" + r1 + "\"}"), new RequestTrace("r", "responses")))
                .isInstanceOf(GatewayException.class);

        create(alice, "{\"model\": \"claude-x\", \"input\": \"q3\", \"previous_response_id\": \"" + r2 + "\"}");
        assertThat(claude.last().messages()).extracting(Message::text).containsExactly("q1", "a1", "q2", "a2", "q3");

        assertThat(store.size()).isEqualTo(3);
        service.delete(alice, r2);
        assertThat(store.size()).as("r1 is still needed by the third turn").isEqualTo(3);
    }

    @Test
    void inputItemsAreTheWholeConversationBeforeTheResponseNewestFirst() {
        claude.answer(answer(ContentBlock.Text.of("a1"))).answer(answer(ContentBlock.Text.of("a2")));
        ObjectNode r1 = create(alice, "{\"model\": \"claude-x\", \"input\": \"q1\"}");
        ObjectNode r2 = create(alice, "{\"model\": \"claude-x\", \"input\": [{\"role\": \"user\", \"content\": \"q2a\"}, "
                + "{\"role\": \"user\", \"content\": \"q2b\"}], \"previous_response_id\": \"" + r1.path("id").asText() + "\"}");
        String id = r2.path("id").asText();

        JsonNode all = items(alice, id, InputItemPage.of(Optional.empty(), Optional.empty(), Optional.empty()));
        assertThat(texts(all)).containsExactly("q2b", "q2a", "a1", "q1");
        assertThat(all.path("has_more").asBoolean()).isFalse();
        assertThat(all.at("/data/2/id").asText()).isEqualTo(r1.at("/output/0/id").asText());

        JsonNode page1 = items(alice, id, InputItemPage.of(Optional.empty(), Optional.of("2"), Optional.of("asc")));
        assertThat(texts(page1)).containsExactly("q1", "a1");
        assertThat(page1.path("has_more").asBoolean()).isTrue();
        JsonNode page2 = items(alice, id, InputItemPage.of(Optional.of(page1.path("last_id").asText()),
                Optional.of("2"), Optional.of("asc")));
        assertThat(texts(page2)).containsExactly("q2a", "q2b");
        assertThat(page2.path("has_more").asBoolean()).isFalse();

        assertThatThrownBy(() -> service.inputItems(alice, id, InputItemPage.of(Optional.of("msg_nope"), Optional.empty(),
                Optional.empty()))).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.error().param()).contains("after"));
        assertThatThrownBy(() -> InputItemPage.of(Optional.empty(), Optional.of("101"), Optional.empty()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().param()).contains("limit"));
        assertThatThrownBy(() -> InputItemPage.of(Optional.empty(), Optional.empty(), Optional.of("up")))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().param()).contains("order"));
    }

    private JsonNode items(Caller caller, String id, InputItemPage page) {
        ResponsesService.ItemPage items = service.inputItems(caller, id, page);
        return Responses.itemList(items.items(), items.hasMore());
    }

    /** Parsed back from text, so number node kinds (int or long) cannot make equal JSON differ. */
    private static JsonNode reparsed(JsonNode n) {
        return Json.parse(Json.write(n));
    }

    private static List<String> texts(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.path("data").forEach(i -> out.add(i.at("/content/0/text").asText()));
        return out;
    }

    @Test
    void aStreamedTurnStoresExactlyWhatItsTerminalEventShowed() throws Exception {
        claude.answer(answer(new ContentBlock.Thinking("hmm", Optional.of(THINKING_SIG)), ContentBlock.Text.of("streamed")));
        ResponseTurn turn = service.begin(alice, request("{\"model\": \"claude-x\", \"input\": \"hi\", \"stream\": true}"),
                new RequestTrace("req_s", "responses"));
        List<JsonNode> events = stream(turn, Integer.MAX_VALUE);

        assertThat(events.getFirst().path("type").asText()).isEqualTo("response.created");
        JsonNode completed = events.getLast();
        assertThat(completed.path("type").asText()).isEqualTo("response.completed");
        assertThat(completed.at("/response/id").asText()).isEqualTo(turn.id());
        assertThat(reparsed(service.retrieve(alice, turn.id()))).isEqualTo(completed.path("response"));
        assertThat(completed.at("/response/output/0/encrypted_content").asText()).startsWith("sb1.");
    }

    @Test
    void aStreamThatFailsMidwayIsStoredFailedAndItsPartialOutputIsNotContinued() throws Exception {
        claude.answer(answer(ContentBlock.Text.of("this will be cut"))).failStreamAfter(3);
        ResponseTurn turn = service.begin(alice, request("{\"model\": \"claude-x\", \"input\": \"q1\", \"stream\": true}"),
                new RequestTrace("req_f", "responses"));
        List<JsonNode> events = stream(turn, Integer.MAX_VALUE);
        assertThat(events).extracting(e -> e.path("type").asText()).endsWith("error", "response.failed");
        assertThat(service.retrieve(alice, turn.id()).path("status").asText()).isEqualTo("failed");

        claude.answer(answer(ContentBlock.Text.of("ok")));
        create(alice, "{\"model\": \"claude-x\", \"input\": \"q2\", \"previous_response_id\": \"" + turn.id() + "\"}");
        assertThat(claude.last().messages()).extracting(Message::text).containsExactly("q1", "q2");
    }

    @Test
    void aStreamWhoseClientLeftIsStoredCancelled() throws Exception {
        claude.answer(answer(ContentBlock.Text.of("nobody reads this")));
        ResponseTurn turn = service.begin(alice, request("{\"model\": \"claude-x\", \"input\": \"q\", \"stream\": true}"),
                new RequestTrace("req_c", "responses"));
        stream(turn, 2);
        assertThat(service.retrieve(alice, turn.id()).path("status").asText()).isEqualTo("cancelled");
    }

    /**
     * Runs the turn's stream the way the edge does into a client that goes away after {@code keep} events,
     * and stores what it showed; returns the parsed frames.
     */
    private static List<JsonNode> stream(ResponseTurn turn, int keep) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ResponsesStreamWriter writer = Responses.streamWriter(turn.header(), turn.ids());
        int[] sent = {0};
        turn.stream(event -> {
            if (sent[0]++ >= keep) {
                throw new ClientGoneException(new java.io.IOException("gone"));
            }
            bytes.writeBytes(writer.writeBytes(event));
        });
        turn.store(writer.terminalResponse().orElseGet(writer::cancelled));
        SseParser parser = new SseParser();
        List<SseEvent> frames = new ArrayList<>(parser.feed(bytes.toByteArray()));
        frames.addAll(parser.finish());
        return frames.stream().map(f -> Json.parse(f.data())).toList();
    }
}
