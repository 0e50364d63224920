package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.JSON;
import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.ObjectMappers;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseStreamEvent;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fake's Responses API ({@link FakeResponsesDialect}): its answers are what OpenAI's own SDK types
 * accept, and it refuses what the real endpoint refuses.
 */
class ResponsesEndpointTest extends FakeUpstreamSupport {
    private final TestClient client = new TestClient(upstream);

    private static ObjectNode ask(String model, String text) {
        ObjectNode body = JSON.createObjectNode().put("model", model).put("store", false);
        body.putArray("input").addObject().put("type", "message").put("role", "user").putArray("content")
                .addObject().put("type", "input_text").put("text", text);
        return body;
    }

    private static ObjectNode reasoning(ObjectNode body) {
        body.putObject("reasoning").put("effort", "low").put("summary", "auto");
        body.putArray("include").add("reasoning.encrypted_content");
        return body;
    }

    private HttpResponse<String> post(JsonNode body) throws Exception {
        return client.post("/v1/responses", body.toString());
    }

    private static List<JsonNode> events(String sse) {
        List<JsonNode> out = new ArrayList<>();
        for (String block : sse.split("\n\n")) {
            String[] lines = block.split("\n");
            if (lines.length == 2 && lines[0].startsWith("event: ") && lines[1].startsWith("data: ")) {
                JsonNode data = json(lines[1].substring(6));
                assertThat(data.path("type").asText()).isEqualTo(lines[0].substring(7));
                out.add(data);
            } else if (!block.isBlank()) {
                throw new AssertionError("not a named event: " + block);
            }
        }
        return out;
    }

    @Test
    void aWholeAnswerIsAValidResponseWithEncryptedReasoningAndItsUsage() throws Exception {
        HttpResponse<String> r = post(reasoning(ask("fake-model", "Say hi")));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        ObjectMappers.jsonMapper().readValue(r.body(), Response.class).validate();
        JsonNode response = json(r.body());
        assertThat(response.path("status").asText()).isEqualTo("completed");
        JsonNode reasoning = response.path("output").path(0);
        assertThat(reasoning.path("type").asText()).isEqualTo("reasoning");
        assertThat(reasoning.path("summary").path(0).path("text").asText()).isEqualTo(AnswerGenerator.REASONING_TEXT);
        assertThat(reasoning.path("encrypted_content").asText()).startsWith(FakeSignatures.ENCRYPTED_PREFIX);
        assertThat(response.path("output").path(1).path("content").path(0).path("text").asText())
                .isEqualTo("Hello from fake-model! You said: Say hi");
        assertThat(response.at("/usage/output_tokens_details/reasoning_tokens").asInt()).isPositive();
    }

    @Test
    void aStreamIsValidEventsThatAccumulateToTheWholeAnswer() throws Exception {
        ObjectNode body = reasoning(ask("fake-model", "Say hi")).put("stream", true);
        body.putArray("tools").addObject().put("type", "function").put("name", "get_weather").put("strict", false)
                .putObject("parameters").put("type", "object").putObject("properties").putObject("city").put("type", "string");
        HttpResponse<String> r = post(body);

        List<JsonNode> events = events(r.body());
        ResponseAccumulator accumulator = ResponseAccumulator.create();
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).path("sequence_number").asInt()).isEqualTo(i);
            ResponseStreamEvent event = ObjectMappers.jsonMapper().readValue(events.get(i).toString(), ResponseStreamEvent.class);
            event.validate();
            accumulator.accumulate(event);
        }
        assertThat(events.getFirst().path("type").asText()).isEqualTo("response.created");
        assertThat(events.getLast().path("type").asText()).isEqualTo("response.completed");
        Response whole = accumulator.response();
        assertThat(whole.output()).hasSize(2);
        assertThat(whole.output().get(1).asFunctionCall().name()).isEqualTo("get_weather");
        assertThat(whole.output().get(1).asFunctionCall().callId()).startsWith("call_");
        assertThat(events).anySatisfy(e -> assertThat(e.path("type").asText()).isEqualTo("response.function_call_arguments.delta"));
    }

    private static ObjectNode withCustomTool(ObjectNode body) {
        body.putArray("tools").addObject().put("type", "custom").put("name", "exec").put("description", "Run a script.")
                .putObject("format").put("type", "grammar").put("syntax", "lark").put("definition", "start: /.+/");
        return body;
    }

    @Test
    void aCustomToolIsCalledWithFreeTextPlainAndStreamedAndItsOutputIsTakenBack() throws Exception {
        upstream.preferCalls(List.of(new FakeUpstream.PreferredCall("exec", "{\"input\":\"print(\\\"hi\\\")\"}")));
        HttpResponse<String> plain = post(withCustomTool(ask("fake-model", "Run it")));

        assertThat(plain.statusCode()).as(plain.body()).isEqualTo(200);
        Response response = ObjectMappers.jsonMapper().readValue(plain.body(), Response.class);
        response.validate();
        var call = response.output().getLast().asCustomToolCall();
        assertThat(call.name()).isEqualTo("exec");
        assertThat(call.input()).isEqualTo("print(\"hi\")");

        HttpResponse<String> streamed = post(withCustomTool(ask("fake-model", "Run it")).put("stream", true));
        List<JsonNode> events = events(streamed.body());
        ResponseAccumulator accumulator = ResponseAccumulator.create();
        for (JsonNode e : events) {
            ResponseStreamEvent event = ObjectMappers.jsonMapper().readValue(e.toString(), ResponseStreamEvent.class);
            event.validate();
            accumulator.accumulate(event);
        }
        assertThat(events).filteredOn(e -> e.path("type").asText().equals("response.custom_tool_call_input.delta"))
                .hasSizeGreaterThan(1);
        assertThat(accumulator.response().output().getLast().asCustomToolCall().input()).isEqualTo("print(\"hi\")");

        ObjectNode next = withCustomTool(ask("fake-model", "Run it"));
        ArrayNode input = (ArrayNode) next.get("input");
        input.addObject().put("type", "custom_tool_call").put("call_id", call.callId()).put("name", "exec")
                .put("input", call.input());
        input.addObject().put("type", "custom_tool_call_output").put("call_id", call.callId()).put("output", "hi");
        assertThat(json(post(next).body()).at("/output/0/content/0/text").asText()).isEqualTo("Tool result received: hi");

        ((ObjectNode) input.get(2)).put("type", "function_call_output");
        assertThat(post(next).body()).contains("No tool call found for function call output with call_id " + call.callId());
    }

    @Test
    void encryptedReasoningItIssuedIsAcceptedBackAndAnyOtherIsRefused() throws Exception {
        JsonNode first = json(post(reasoning(ask("fake-model", "Say hi"))).body());
        ObjectNode second = reasoning(ask("fake-model", "Say hi"));
        ArrayNode input = (ArrayNode) second.get("input");
        first.path("output").forEach(item -> input.add(item.deepCopy()));
        input.addObject().put("role", "user").put("content", "Again");
        assertThat(post(second).statusCode()).isEqualTo(200);

        ((ObjectNode) input.get(1)).put("encrypted_content", FakeSignatures.sign("a Claude signature"));
        HttpResponse<String> foreign = post(second);
        assertThat(foreign.statusCode()).isEqualTo(400);
        assertThat(foreign.body()).contains("could not be verified");

        ((ObjectNode) input.get(1)).remove("encrypted_content");
        assertThat(post(second).body()).contains("Items are not persisted when `store` is set to false");
    }

    @Test
    void itRefusesWhatTheRealEndpointRefuses() throws Exception {
        assertThat(post(ask("fake-model", "x").put("stop", "END")).body()).contains("Unknown parameter: 'stop'.");
        assertThat(post(ask("fake-model", "x").put("max_output_tokens", 5)).body()).contains("Expected a value >= 16");
        assertThat(post(reasoning(ask("fake-noreason", "x"))).body()).contains("Encrypted content is not supported with this model.");

        ObjectNode orphan = ask("fake-model", "x");
        orphan.withArray("input").addObject().put("type", "function_call_output").put("call_id", "call_1").put("output", "ok");
        assertThat(post(orphan).body()).contains("No tool call found for function call output with call_id call_1.");

        ObjectNode unanswered = ask("fake-model", "x");
        unanswered.withArray("input").addObject().put("type", "function_call").put("call_id", "call_2").put("name", "f")
                .put("arguments", "{}");
        assertThat(post(unanswered).body()).contains("No tool output found for function call call_2.");

        ObjectNode lonelyReasoning = ask("fake-model", "x");
        lonelyReasoning.withArray("input").addObject().put("type", "reasoning").put("encrypted_content",
                FakeSignatures.encrypt("t")).putArray("summary");
        assertThat(post(lonelyReasoning).body()).contains("without its required following item");

        ObjectNode assistantInput = ask("fake-model", "x");
        assistantInput.withArray("input").addObject().put("type", "message").put("role", "assistant").putArray("content")
                .addObject().put("type", "input_text").put("text", "hi");
        assertThat(post(assistantInput).body()).contains("Invalid value: 'input_text'");

        ObjectNode looseStrict = ask("fake-model", "x");
        looseStrict.putArray("tools").addObject().put("type", "function").put("name", "f").putObject("parameters")
                .put("type", "object").putObject("properties").putObject("q").put("type", "string");
        assertThat(post(looseStrict).body()).contains("Invalid schema for function 'f'").contains("additionalProperties");

        ObjectNode ebnf = withCustomTool(ask("fake-model", "x"));
        ((ObjectNode) ebnf.at("/tools/0/format")).put("syntax", "ebnf");
        assertThat(post(ebnf).body()).contains("Invalid value: 'ebnf'").contains("tools[0].format.syntax");

        ObjectNode jsonWithoutTheWord = ask("fake-model", "x");
        jsonWithoutTheWord.putObject("text").putObject("format").put("type", "json_object");
        assertThat(post(jsonWithoutTheWord).body()).contains("must contain the word 'json'");
    }

    @Test
    void aStreamThatFailsMidWaySaysSoWithAnErrorEventAndResponseFailed() throws Exception {
        List<JsonNode> events = events(post(ask("fake-midfail", "Tell me a long story").put("stream", true)).body());

        assertThat(events.getLast().path("type").asText()).isEqualTo("response.failed");
        assertThat(events.getLast().at("/response/error/code").asText()).isEqualTo("server_error");
        assertThat(events.get(events.size() - 2).path("type").asText()).isEqualTo("error");
        assertThat(events).anySatisfy(e -> assertThat(e.path("type").asText()).isEqualTo("response.output_text.delta"));
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).path("sequence_number").asInt()).isEqualTo(i);
            ObjectMappers.jsonMapper().readValue(events.get(i).toString(), ResponseStreamEvent.class).validate();
        }

        List<JsonNode> failed = events(post(ask("fake-failed", "x").put("stream", true)).body());
        assertThat(failed).extracting(e -> e.path("type").asText())
                .containsExactly("response.created", "response.in_progress", "response.failed");
    }
}
