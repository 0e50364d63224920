package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.chat;
import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class ChatCompletionTest extends FakeUpstreamSupport {
    private final TestClient client = new TestClient(upstream);

    @Test
    void answersDeterministicallyWithEchoAndUsage() throws Exception {
        ObjectNode body = chat("fake-model", "Say hi");
        ((com.fasterxml.jackson.databind.node.ArrayNode) body.get("messages"))
                .insertObject(0).put("role", "system").put("content", "You are terse."); // 14 + 6 chars

        HttpResponse<String> response = client.chatCompletion(body);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode completion = json(response.body());
        assertThat(completion.get("id").asText()).matches("chatcmpl-fake-\\d+");
        assertThat(completion.get("object").asText()).isEqualTo("chat.completion");
        assertThat(completion.get("model").asText()).isEqualTo("fake-model");
        assertThat(completion.get("created").asLong()).isPositive();
        JsonNode choice = completion.get("choices").get(0);
        assertThat(choice.get("index").asInt()).isZero();
        assertThat(choice.get("finish_reason").asText()).isEqualTo("stop");
        assertThat(choice.get("message").get("role").asText()).isEqualTo("assistant");
        assertThat(choice.get("message").get("content").asText()).isEqualTo("Hello from fake-model! You said: Say hi");
        assertThat(choice.get("message").has("tool_calls")).isFalse();
        assertThat(choice.get("message").has("reasoning_content")).isFalse();

        JsonNode usage = completion.get("usage");
        assertThat(usage.get("prompt_tokens").asInt()).isEqualTo(5); // ceil(20 / 4)
        assertThat(usage.get("completion_tokens").asInt()).isEqualTo(7); // one per word
        assertThat(usage.get("total_tokens").asInt()).isEqualTo(12);
        assertThat(usage.at("/prompt_tokens_details/cached_tokens").asInt()).isZero();
        assertThat(usage.at("/completion_tokens_details/reasoning_tokens").asInt()).isZero();
    }

    @Test
    void numbersResponsesAndReadsTextParts() throws Exception {
        ObjectNode body = TestClient.JSON.createObjectNode().put("model", "other-model");
        ObjectNode user = body.putArray("messages").addObject().put("role", "user");
        user.putArray("content").addObject().put("type", "text").put("text", "part one");
        ((com.fasterxml.jackson.databind.node.ArrayNode) user.get("content"))
                .addObject().put("type", "text").put("text", "part two");

        JsonNode first = json(client.chatCompletion(body).body());
        JsonNode second = json(client.chatCompletion(body).body());

        assertThat(first.at("/choices/0/message/content").asText())
                .isEqualTo("Hello from other-model! You said: part one part two");
        assertThat(first.get("model").asText()).isEqualTo("other-model");
        long n = Long.parseLong(first.get("id").asText().substring("chatcmpl-fake-".length()));
        assertThat(second.get("id").asText()).isEqualTo("chatcmpl-fake-" + (n + 1));
    }

    @Test
    void truncatesLongQuotesAndCollapsesWhitespace() throws Exception {
        String longText = "word\n\n  " + "x".repeat(300);

        String content = json(client.chatCompletion(chat("fake-model", longText)).body())
                .at("/choices/0/message/content").asText();

        assertThat(content).startsWith("Hello from fake-model! You said: word xxx").endsWith("...");
        assertThat(content.length()).isLessThan(200);
    }

    @Test
    void maxTokensCutsTheWordListWithFinishLength() throws Exception {
        JsonNode completion = json(client.chatCompletion(chat("fake-model", "Say hi").put("max_tokens", 3)).body());

        assertThat(completion.at("/choices/0/message/content").asText()).isEqualTo("Hello from fake-model!");
        assertThat(completion.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(completion.at("/usage/completion_tokens").asInt()).isEqualTo(3);
    }

    @Test
    void maxCompletionTokensWinsOverMaxTokens() throws Exception {
        ObjectNode body = chat("fake-model", "Say hi").put("max_tokens", 100).put("max_completion_tokens", 2);

        JsonNode completion = json(client.chatCompletion(body).body());

        assertThat(completion.at("/choices/0/message/content").asText()).isEqualTo("Hello from");
        assertThat(completion.at("/choices/0/finish_reason").asText()).isEqualTo("length");
    }

    @Test
    void stopStringCutsAtItsFirstOccurrence() throws Exception {
        ObjectNode body = chat("fake-model", "Say hi");
        body.putArray("stop").add("zzz").add("You");

        JsonNode completion = json(client.chatCompletion(body).body());

        assertThat(completion.at("/choices/0/message/content").asText()).isEqualTo("Hello from fake-model! ");
        assertThat(completion.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void malformedJsonGets400Envelope() throws Exception {
        HttpResponse<String> response = client.post("/v1/chat/completions", "{\"model\": \"fake-model\",");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = json(response.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.get("message").asText()).isNotBlank();
        assertThat(error.get("param").isNull()).isTrue();
        assertThat(error.get("code").isNull()).isTrue();
    }

    @Test
    void missingMessagesGets400NamingTheField() throws Exception {
        HttpResponse<String> response = client.post("/v1/chat/completions", "{\"model\":\"fake-model\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).at("/error/param").asText()).isEqualTo("messages");
    }

    @Test
    void listsModels() throws Exception {
        upstream.models("a-model", "b-model");
        HttpRequest request = HttpRequest.newBuilder(URI.create(upstream.openAiBaseUrl() + "/models")).GET().build();

        HttpResponse<String> response = client.send(request);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode list = json(response.body());
        assertThat(list.get("object").asText()).isEqualTo("list");
        assertThat(list.get("data")).extracting(m -> m.get("id").asText()).containsExactly("a-model", "b-model");
        assertThat(list.at("/data/0/object").asText()).isEqualTo("model");
    }

    @Test
    void unknownRouteGets404() throws Exception {
        HttpResponse<String> response = client.post("/v1/completions", "{}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json(response.body()).at("/error/message").asText()).contains("/v1/completions");
    }
}
