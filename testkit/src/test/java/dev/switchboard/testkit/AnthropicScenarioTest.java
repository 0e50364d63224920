package dev.switchboard.testkit;

import static dev.switchboard.testkit.AnthropicClient.accumulate;
import static dev.switchboard.testkit.AnthropicClient.message;
import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.AnthropicClient.Event;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scripted behaviours of the Anthropic dialect: thinking, tools, cache usage and faults. */
class AnthropicScenarioTest extends FakeUpstreamSupport {
    private final AnthropicClient client = new AnthropicClient(upstream);

    private static ObjectNode thinking(ObjectNode body) {
        body.putObject("thinking").put("type", "enabled").put("budget_tokens", 1024);
        return body.put("max_tokens", 2048);
    }

    private static ObjectNode withTool(ObjectNode body) {
        ObjectNode tool = body.putArray("tools").addObject().put("name", "get_weather");
        tool.putObject("input_schema").put("type", "object").putArray("required").add("city");
        tool.withObjectProperty("input_schema").putObject("properties").putObject("city").put("type", "string");
        return body;
    }

    @Test
    void thinkingInTheRequestGivesASignedThinkingBlockFirst() throws Exception {
        JsonNode answer = client.answer(thinking(message("claude-fake", "Say hi")));

        assertThat(answer.get("content")).hasSize(2);
        JsonNode block = answer.at("/content/0");
        assertThat(block.get("type").asText()).isEqualTo("thinking");
        assertThat(block.get("thinking").asText()).isEqualTo(AnswerGenerator.REASONING_TEXT);
        assertThat(block.get("signature").asText()).isEqualTo(FakeSignatures.sign(AnswerGenerator.REASONING_TEXT));
        assertThat(answer.at("/content/1/type").asText()).isEqualTo("text");
        assertThat(answer.at("/usage/output_tokens").asInt()).isEqualTo(7 + AnswerGenerator.pieces(AnswerGenerator.REASONING_TEXT).size());
    }

    @Test
    void aStreamedThinkingBlockEndsWithItsSignatureJustBeforeTheStop() throws Exception {
        List<Event> events = client.stream(message("claude-fake-reasoning", "Say hi"));

        int stop = -1;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).type().equals("content_block_stop") && events.get(i).data().get("index").asInt() == 0) {
                stop = i;
                break;
            }
        }
        assertThat(events.get(2).data().get("content_block").toString())
                .isEqualTo("{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}");
        assertThat(events.get(stop - 1).data().at("/delta/type").asText()).isEqualTo("signature_delta");
        assertThat(events.subList(3, stop - 1)).allSatisfy(e ->
                assertThat(e.data().at("/delta/type").asText()).isEqualTo("thinking_delta"));
        assertThat(accumulate(events).get("content"))
                .isEqualTo(client.answer(message("claude-fake-reasoning", "Say hi")).get("content"));
    }

    @Test
    void omittedDisplaySendsEmptyThinkingThatStillVerifiesWhenEchoed() throws Exception {
        ObjectNode body = thinking(message("claude-fake", "Say hi"));
        body.withObjectProperty("thinking").put("display", "omitted");

        JsonNode answer = client.answer(body);
        List<Event> events = client.stream(body.deepCopy());

        assertThat(answer.at("/content/0/thinking").asText()).isEmpty();
        assertThat(answer.at("/content/0/signature").asText()).startsWith(FakeSignatures.PREFIX);
        assertThat(events).noneMatch(e -> e.data().at("/delta/type").asText().equals("thinking_delta"));
        ObjectNode echo = body.deepCopy().put("stream", false);
        echo.withArray("messages").addObject().put("role", "assistant").set("content", answer.get("content"));
        echo.withArray("messages").addObject().put("role", "user").put("content", "again");
        assertThat(client.send(echo).statusCode()).isEqualTo(200);
    }

    @Test
    void echoedThinkingMustCarryTheSignatureItCameWith() throws Exception {
        JsonNode answer = client.answer(thinking(message("claude-fake", "Say hi")));
        String signature = answer.at("/content/0/signature").asText();

        assertThat(echo(answer, signature).statusCode()).isEqualTo(200);
        for (String broken : List.of("", signature.substring(0, signature.length() - 1),
                flipped(signature, 12), FakeSignatures.sign("some other thought"))) {
            HttpResponse<String> refused = echo(answer, broken);
            assertThat(refused.statusCode()).as(broken).isEqualTo(400);
            assertThat(json(refused.body()).at("/error/message").asText()).contains("messages.1.content.0.thinking");
        }
    }

    private static String flipped(String s, int at) {
        return s.substring(0, at) + (s.charAt(at) == 'A' ? 'B' : 'A') + s.substring(at + 1);
    }

    private HttpResponse<String> echo(JsonNode answer, String signature) throws Exception {
        ObjectNode body = thinking(message("claude-fake", "Say hi"));
        ObjectNode assistant = body.withArray("messages").addObject().put("role", "assistant");
        assistant.putArray("content").add(answer.at("/content/0").deepCopy()).add(answer.at("/content/1").deepCopy());
        ((ObjectNode) assistant.at("/content/0")).put("signature", signature);
        body.withArray("messages").addObject().put("role", "user").put("content", "again");
        return client.send(body);
    }

    @Test
    void redactedSuffixAddsARedactedBlockBeforeTheThinking() throws Exception {
        JsonNode answer = client.answer(message("claude-fake-reasoning-redacted", "Say hi"));

        assertThat(answer.get("content")).extracting(b -> b.get("type").asText())
                .containsExactly("redacted_thinking", "thinking", "text");
        assertThat(accumulate(client.stream(message("claude-fake-reasoning-redacted", "Say hi"))).get("content"))
                .isEqualTo(answer.get("content"));
    }

    @Test
    void toolUseStreamsItsInputInSlicesAfterAnEmptyOne() throws Exception {
        JsonNode plain = client.answer(withTool(message("claude-fake", "Weather?")));
        List<Event> events = client.stream(withTool(message("claude-fake", "Weather?")));

        assertThat(plain.get("stop_reason").asText()).isEqualTo("tool_use");
        assertThat(plain.at("/content/0/id").asText()).matches("toolu_fake_\\d+");
        assertThat(plain.at("/content/0/input")).isEqualTo(json("{\"city\":\"Paris\"}"));
        List<String> slices = new ArrayList<>();
        for (Event e : events) {
            if (e.data().at("/delta/type").asText().equals("input_json_delta")) {
                slices.add(e.data().at("/delta/partial_json").asText());
            }
        }
        assertThat(events.get(2).data().at("/content_block/input")).isEqualTo(json("{}"));
        assertThat(slices.getFirst()).isEmpty();
        assertThat(slices.subList(1, slices.size())).hasSizeGreaterThanOrEqualTo(2).allSatisfy(s -> assertThat(s).isNotEmpty());
        assertThat(json(String.join("", slices))).isEqualTo(plain.at("/content/0/input"));
        assertThat(accumulate(events).at("/content/0/name").asText()).isEqualTo("get_weather");
    }

    @Test
    void parallelSuffixCallsTwoToolsAndAToolResultTurnIsAnswered() throws Exception {
        JsonNode calls = client.answer(withTool(message("claude-fake-parallel", "Weather?")));
        assertThat(calls.get("content")).hasSize(2);

        ObjectNode followUp = withTool(message("claude-fake-parallel", "Weather?"));
        followUp.withArray("messages").addObject().put("role", "assistant").set("content", calls.get("content"));
        ObjectNode results = followUp.withArray("messages").addObject().put("role", "user");
        results.putArray("content");
        for (JsonNode call : calls.get("content")) {
            results.withArray("content").addObject().put("type", "tool_result")
                    .put("tool_use_id", call.get("id").asText()).put("content", "4°C in " + call.at("/input/city").asText());
        }
        JsonNode answer = client.answer(followUp);

        assertThat(answer.at("/content/0/text").asText()).isEqualTo("Tool result received: 4°C in Paris");
        assertThat(answer.get("stop_reason").asText()).isEqualTo("end_turn");
    }

    @Test
    void aFirstCallWritesTheCacheAndARepeatReadsIt() throws Exception {
        ObjectNode body = cached("x".repeat(400), "1h", "What now?");

        JsonNode first = client.answer(body).get("usage");
        JsonNode second = client.answer(body).get("usage");
        JsonNode otherQuestion = client.answer(cached("x".repeat(400), "1h", "Something else entirely?")).get("usage");

        int prefix = first.get("cache_creation_input_tokens").asInt();
        assertThat(prefix).isEqualTo((400 + "system:".length()) / 4);
        assertThat(first.at("/cache_creation/ephemeral_1h_input_tokens").asInt()).isEqualTo(prefix);
        assertThat(first.at("/cache_creation/ephemeral_5m_input_tokens").asInt()).isZero();
        assertThat(first.get("cache_read_input_tokens").asInt()).isZero();
        assertThat(second.get("cache_read_input_tokens").asInt()).isEqualTo(prefix);
        assertThat(second.get("cache_creation_input_tokens").asInt()).isZero();
        assertThat(second.get("input_tokens").asInt()).isEqualTo(first.get("input_tokens").asInt());
        assertThat(otherQuestion.get("cache_read_input_tokens").asInt()).as("same prefix, new question").isEqualTo(prefix);
        assertThat(client.answer(cached("y".repeat(400), "1h", "What now?")).at("/usage/cache_read_input_tokens").asInt())
                .as("a different prefix is not a hit").isZero();
    }

    @Test
    void writesSplitByTheTtlOfEachBreakpoint() throws Exception {
        ObjectNode body = cached("s".repeat(800), "1h", "q".repeat(396));
        ObjectNode question = (ObjectNode) body.at("/messages/0");
        question.putArray("content").addObject().put("type", "text").put("text", "q".repeat(395))
                .putObject("cache_control").put("type", "ephemeral");

        JsonNode usage = client.answer(body).get("usage");
        JsonNode streamed = client.stream(body.deepCopy()).getFirst().data().at("/message/usage");

        assertThat(usage.at("/cache_creation/ephemeral_1h_input_tokens").asInt()).isEqualTo(807 / 4);
        assertThat(usage.at("/cache_creation/ephemeral_5m_input_tokens").asInt()).isEqualTo((807 + 400) / 4 - 807 / 4);
        assertThat(usage.get("input_tokens").asInt() + usage.get("cache_creation_input_tokens").asInt())
                .isEqualTo((807 + 400 + 3) / 4);
        assertThat(streamed.get("cache_read_input_tokens").asInt()).as("the stream repeated the prefix")
                .isEqualTo((807 + 400) / 4);
    }

    private static ObjectNode cached(String system, String ttl, String question) {
        ObjectNode body = message("claude-fake", question);
        body.putArray("system").addObject().put("type", "text").put("text", system)
                .putObject("cache_control").put("type", "ephemeral").put("ttl", ttl);
        return body;
    }

    @Test
    void cacheSuffixWithoutBreakpointsReportsHalfThePromptAsRead() throws Exception {
        JsonNode usage = client.answer(message("claude-fake-cache", "x".repeat(395))).get("usage");

        assertThat(usage.get("cache_read_input_tokens").asInt()).isEqualTo(50);
        assertThat(usage.get("input_tokens").asInt()).isEqualTo(50);
    }

    @ParameterizedTest
    @CsvSource({"claude-fake-fail529, 529, overloaded_error", "claude-fake-fail500, 500, api_error",
                "claude-fake-fail404, 404, not_found_error", "claude-fake-fail413, 413, request_too_large"})
    void failSuffixUsesAnthropicsEnvelope(String model, int status, String type) throws Exception {
        HttpResponse<String> response = client.send(message(model, "hi"));

        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode body = json(response.body());
        assertThat(body.get("type").asText()).isEqualTo("error");
        assertThat(body.at("/error/type").asText()).isEqualTo(type);
        assertThat(body.at("/error/message").asText()).contains(model);
        assertThat(response.headers().firstValue("request-id")).hasValue(body.get("request_id").asText());
    }

    @Test
    void midfailSendsAnOverloadedErrorEventAfterFourEventsAndEndsCleanly() throws Exception {
        HttpResponse<String> response = client.send(message("claude-fake-midfail", "one two three").put("stream", true));

        List<Event> events = AnthropicClient.events(response.body());
        assertThat(events).extracting(Event::name)
                .containsExactly("message_start", "ping", "content_block_start", "content_block_delta", "error");
        assertThat(events.getLast().data().toString())
                .isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
    }

    @Test
    void midresetCutsTheStreamAfterFourEvents() throws Exception {
        HttpResponse<InputStream> response = client.send(message("claude-fake-midreset", "one two three").put("stream", true),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);

        List<String> lines = linesUntilCut(response.body());
        assertThat(lines.stream().filter(l -> l.startsWith("event: ")).toList())
                .containsExactly("event: message_start", "event: ping", "event: content_block_start", "event: content_block_delta");
    }

    @Test
    void midfailAndMidresetCutAPlainBody() {
        assertThatThrownBy(() -> client.send(message("claude-fake-midfail", "hi"))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> client.send(message("claude-fake-midreset", "hi"))).isInstanceOf(IOException.class);
    }

    @Test
    void emptySuffixEndsTheStreamBeforeItsFirstEvent() throws Exception {
        HttpResponse<String> response = client.send(message("claude-fake-empty", "hi").put("stream", true));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        assertThat(response.body()).isEmpty();
    }

    @Test
    void noprefillRefusesOnlyAConversationEndingWithTheAssistant() throws Exception {
        ObjectNode prefill = message("claude-fake-noprefill", "List colours as JSON.");
        prefill.withArray("messages").addObject().put("role", "assistant").put("content", "{\"colours\":");

        HttpResponse<String> refused = client.send(prefill);
        HttpResponse<String> plainModel = client.send(prefill.deepCopy().put("model", "claude-fake"));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(json(refused.body()).at("/error/message").asText())
                .startsWith("This model does not support assistant message prefill.");
        assertThat(plainModel.statusCode()).isEqualTo(200);
        assertThat(client.send(message("claude-fake-noprefill", "hi")).statusCode()).isEqualTo(200);
    }
}
