package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.chat;
import static dev.switchboard.testkit.TestClient.chunks;
import static dev.switchboard.testkit.TestClient.json;
import static dev.switchboard.testkit.TestClient.streaming;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolCallTest extends FakeUpstreamSupport {
    private static final String WEATHER_ARGUMENTS = "{\"city\":\"Paris\",\"days\":1,\"metric\":true,"
            + "\"unit\":\"celsius\",\"tags\":[\"Paris\"],\"where\":{\"lat\":1}}";

    private final TestClient client = new TestClient(upstream);

    /** get_weather with required properties of every kind and one optional, then a tool without parameters. */
    private static ObjectNode withTools(String model) {
        ObjectNode body = chat(model, "Weather in Paris?");
        ArrayNode tools = body.putArray("tools");
        ObjectNode weather = tools.addObject().put("type", "function").putObject("function").put("name", "get_weather");
        ObjectNode schema = weather.putObject("parameters").put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("city").put("type", "string");
        properties.putObject("days").put("type", "integer");
        properties.putObject("metric").put("type", "boolean");
        properties.putObject("unit").put("type", "string").putArray("enum").add("celsius").add("fahrenheit");
        properties.putObject("tags").put("type", "array").putObject("items").put("type", "string");
        ObjectNode where = properties.putObject("where").put("type", "object");
        where.putObject("properties").putObject("lat").put("type", "number");
        where.putArray("required").add("lat");
        properties.putObject("note").put("type", "string");
        schema.putArray("required").add("city").add("days").add("metric").add("unit").add("tags").add("where");
        tools.addObject().put("type", "function").putObject("function").put("name", "get_time");
        return body;
    }

    @Test
    void callsTheFirstToolWithRequiredArgumentsFilled() throws Exception {
        JsonNode completion = json(client.chatCompletion(withTools("fake-model")).body());

        JsonNode choice = completion.at("/choices/0");
        assertThat(choice.get("finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(choice.at("/message/content").isNull()).isTrue();
        JsonNode calls = choice.at("/message/tool_calls");
        assertThat(calls).hasSize(1);
        assertThat(calls.at("/0/id").asText()).matches("call_\\d+");
        assertThat(calls.at("/0/type").asText()).isEqualTo("function");
        assertThat(calls.at("/0/function/name").asText()).isEqualTo("get_weather");
        assertThat(calls.at("/0/function/arguments").isTextual()).as("arguments are a JSON string").isTrue();
        assertThat(calls.at("/0/function/arguments").asText()).isEqualTo(WEATHER_ARGUMENTS);
        assertThat(completion.at("/usage/completion_tokens").asInt()).isPositive();
    }

    @Test
    void callIdsAreSequential() throws Exception {
        String first = json(client.chatCompletion(withTools("fake-model")).body()).at("/choices/0/message/tool_calls/0/id").asText();
        String second = json(client.chatCompletion(withTools("fake-model")).body()).at("/choices/0/message/tool_calls/0/id").asText();

        assertThat(Long.parseLong(second.substring(5))).isEqualTo(Long.parseLong(first.substring(5)) + 1);
    }

    @Test
    void callsTheForcedTool() throws Exception {
        ObjectNode body = withTools("fake-model");
        body.putObject("tool_choice").put("type", "function").putObject("function").put("name", "get_time");

        JsonNode call = json(client.chatCompletion(body).body()).at("/choices/0/message/tool_calls/0");

        assertThat(call.at("/function/name").asText()).isEqualTo("get_time");
        assertThat(call.at("/function/arguments").asText()).isEqualTo("{}");
    }

    @Test
    void toolChoiceNoneGivesText() throws Exception {
        JsonNode completion = json(client.chatCompletion(withTools("fake-model").put("tool_choice", "none")).body());

        assertThat(completion.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(completion.at("/choices/0/message/content").asText()).startsWith("Hello from fake-model!");
    }

    @Test
    void parallelCallsTheFirstTwoTools() throws Exception {
        JsonNode calls = json(client.chatCompletion(withTools("fake-parallel")).body()).at("/choices/0/message/tool_calls");

        assertThat(calls).extracting(c -> c.at("/function/name").asText()).containsExactly("get_weather", "get_time");
        assertThat(calls.at("/0/id").asText()).isNotEqualTo(calls.at("/1/id").asText());
    }

    @Test
    void parallelWithOneToolCallsItTwice() throws Exception {
        ObjectNode body = withTools("fake-parallel");
        ((ArrayNode) body.get("tools")).remove(1);

        JsonNode calls = json(client.chatCompletion(body).body()).at("/choices/0/message/tool_calls");

        assertThat(calls).extracting(c -> c.at("/function/name").asText()).containsExactly("get_weather", "get_weather");
        assertThat(calls.at("/0/id").asText()).isNotEqualTo(calls.at("/1/id").asText());
    }

    @Test
    void aToolResultIsAcknowledgedInText() throws Exception {
        ObjectNode body = withTools("fake-model");
        ArrayNode messages = (ArrayNode) body.get("messages");
        ObjectNode assistant = messages.addObject().put("role", "assistant").putNull("content");
        ObjectNode call = assistant.putArray("tool_calls").addObject().put("id", "call_9").put("type", "function");
        call.putObject("function").put("name", "get_weather").put("arguments", WEATHER_ARGUMENTS);
        messages.addObject().put("role", "tool").put("tool_call_id", "call_9").put("content", "{\"temp_c\":4}");

        JsonNode completion = json(client.chatCompletion(body).body());

        assertThat(completion.at("/choices/0/message/content").asText()).isEqualTo("Tool result received: {\"temp_c\":4}");
        assertThat(completion.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void streamsEachCallAsAnOpeningFragmentThenArgumentSlices() throws Exception {
        List<JsonNode> chunks = chunks(client.chatCompletion(streaming(withTools("fake-parallel"), true)).body());

        JsonNode first = chunks.getFirst().at("/choices/0/delta");
        assertThat(first.get("role").asText()).isEqualTo("assistant");
        assertThat(first.get("content").isNull()).isTrue();

        Map<Integer, StringBuilder> arguments = new LinkedHashMap<>();
        Map<Integer, List<String>> slices = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (JsonNode chunk : chunks.subList(0, chunks.size() - 2)) {
            for (JsonNode fragment : chunk.at("/choices/0/delta/tool_calls")) {
                int index = fragment.get("index").asInt();
                if (fragment.has("id")) { // opening fragment: names the call, arguments empty
                    assertThat(arguments).doesNotContainKey(index);
                    ids.add(fragment.get("id").asText());
                    names.add(fragment.at("/function/name").asText());
                    assertThat(fragment.get("type").asText()).isEqualTo("function");
                    assertThat(fragment.at("/function/arguments").asText()).isEmpty();
                    arguments.put(index, new StringBuilder());
                    slices.put(index, new ArrayList<>());
                } else {
                    assertThat(fragment.has("type")).isFalse();
                    assertThat(fragment.at("/function/name").isMissingNode()).isTrue();
                    arguments.get(index).append(fragment.at("/function/arguments").asText());
                    slices.get(index).add(fragment.at("/function/arguments").asText());
                }
            }
        }
        assertThat(arguments).containsOnlyKeys(0, 1);
        assertThat(names).containsExactly("get_weather", "get_time");
        assertThat(ids).allMatch(id -> id.matches("call_\\d+")).doesNotHaveDuplicates();
        assertThat(slices.values()).allSatisfy(s -> assertThat(s).hasSizeGreaterThanOrEqualTo(2));
        assertThat(json(arguments.get(0).toString())).isEqualTo(json(WEATHER_ARGUMENTS));
        assertThat(json(arguments.get(1).toString())).isEqualTo(json("{}"));

        JsonNode finish = chunks.get(chunks.size() - 2);
        assertThat(finish.at("/choices/0/delta").isEmpty()).isTrue();
        assertThat(finish.at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(chunks.getLast().get("choices").isEmpty()).isTrue();
    }

    @Test
    void streamedArgumentsEqualPlainArguments() throws Exception {
        String plain = json(client.chatCompletion(withTools("fake-model")).body())
                .at("/choices/0/message/tool_calls/0/function/arguments").asText();
        StringBuilder streamed = new StringBuilder();
        for (JsonNode chunk : chunks(client.chatCompletion(streaming(withTools("fake-model"), false)).body())) {
            for (JsonNode fragment : chunk.at("/choices/0/delta/tool_calls")) {
                streamed.append(fragment.at("/function/arguments").asText());
            }
        }

        assertThat(streamed.toString()).isEqualTo(plain);
    }
}
