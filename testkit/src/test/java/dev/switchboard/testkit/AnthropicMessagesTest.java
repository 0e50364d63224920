package dev.switchboard.testkit;

import static dev.switchboard.testkit.AnthropicClient.accumulate;
import static dev.switchboard.testkit.AnthropicClient.message;
import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.AnthropicClient.Event;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Anthropic dialect's wire shapes: the plain message, the named-event stream, headers and keys. */
class AnthropicMessagesTest extends FakeUpstreamSupport {
    private final AnthropicClient client = new AnthropicClient(upstream);

    @Test
    void plainAnswerIsAnAnthropicMessage() throws Exception {
        HttpResponse<String> response = client.send(message("claude-fake", "Say hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("request-id")).hasValueSatisfying(id -> assertThat(id).startsWith("req_fake_"));
        JsonNode body = json(response.body());
        assertThat(body.get("id").asText()).matches("msg_fake_\\d+");
        assertThat(body.get("type").asText()).isEqualTo("message");
        assertThat(body.get("role").asText()).isEqualTo("assistant");
        assertThat(body.get("model").asText()).isEqualTo("claude-fake");
        assertThat(body.get("content")).hasSize(1);
        assertThat(body.at("/content/0/type").asText()).isEqualTo("text");
        assertThat(body.at("/content/0/text").asText()).isEqualTo("Hello from claude-fake! You said: Say hi");
        assertThat(body.get("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(body.get("stop_sequence").isNull()).isTrue();
        JsonNode usage = body.get("usage");
        assertThat(usage.get("input_tokens").asInt()).isEqualTo(3); // "user:Say hi": 11 characters / 4, rounded up
        assertThat(usage.get("output_tokens").asInt()).isEqualTo(7);
        assertThat(usage.get("cache_creation_input_tokens").asInt()).isZero();
        assertThat(usage.get("cache_read_input_tokens").asInt()).isZero();
        assertThat(usage.at("/cache_creation/ephemeral_5m_input_tokens").asInt()).isZero();
        assertThat(usage.get("service_tier").asText()).isEqualTo("standard");
    }

    @Test
    void streamFollowsAnthropicsEventOrderAndEqualsThePlainAnswer() throws Exception {
        JsonNode plain = client.answer(message("claude-fake", "the same words either way"));

        List<Event> events = client.stream(message("claude-fake", "the same words either way"));

        int words = plain.at("/usage/output_tokens").asInt();
        assertThat(words).isEqualTo(10);
        assertThat(events).extracting(Event::name).startsWith("message_start", "ping", "content_block_start")
                .endsWith("content_block_stop", "message_delta", "message_stop").hasSize(3 + words + 3);
        assertThat(events.subList(3, 3 + words)).extracting(Event::name).containsOnly("content_block_delta");
        JsonNode start = events.getFirst().data().get("message");
        assertThat(start.get("content").isEmpty()).isTrue();
        assertThat(start.get("stop_reason").isNull()).isTrue();
        assertThat(start.at("/usage/output_tokens").asInt()).isEqualTo(1);
        assertThat(events.get(2).data().get("content_block").toString()).isEqualTo("{\"type\":\"text\",\"text\":\"\"}");
        JsonNode delta = events.get(events.size() - 2).data();
        assertThat(delta.at("/delta/stop_reason").asText()).isEqualTo("end_turn");
        assertThat(delta.at("/usage/output_tokens").asInt()).as("cumulative, not the last increment")
                .isEqualTo(plain.at("/usage/output_tokens").asInt());
        assertThat(delta.at("/usage/input_tokens").asInt()).isEqualTo(plain.at("/usage/input_tokens").asInt());

        JsonNode streamed = accumulate(events);
        assertThat(streamed.get("content")).isEqualTo(plain.get("content"));
        assertThat(streamed.get("stop_reason")).isEqualTo(plain.get("stop_reason"));
    }

    @Test
    void theVersionHeaderIsRequired() throws Exception {
        var request = client.request(message("claude-fake", "hi")).setHeader("anthropic-version", "").build();
        var without = new TestClient(upstream).request(FakeAnthropicDialect.MESSAGES_PATH, message("claude-fake", "hi").toString()).build();

        for (HttpResponse<String> response : List.of(client.send(request), client.send(without))) {
            assertThat(response.statusCode()).isEqualTo(400);
            JsonNode body = json(response.body());
            assertThat(body.get("type").asText()).isEqualTo("error");
            assertThat(body.at("/error/type").asText()).isEqualTo("invalid_request_error");
            assertThat(body.at("/error/message").asText()).contains("anthropic-version");
            assertThat(body.get("request_id").asText()).startsWith("req_fake_");
        }
    }

    @Test
    void theKeyGoesInXApiKey() throws Exception {
        upstream.requireKey("sk-ant-1").keyStatus("sk-ant-limited", 429);
        var body = message("claude-fake", "hi");

        HttpResponse<String> missing = client.send(client.request(body).build());
        HttpResponse<String> bearer = client.send(client.request(body).header("authorization", "Bearer sk-ant-1").build());
        HttpResponse<String> limited = client.send(client.request(body).header("x-api-key", "sk-ant-limited").build());
        HttpResponse<String> ok = client.send(client.request(body).header("x-api-key", "sk-ant-1").build());

        for (HttpResponse<String> denied : List.of(missing, bearer)) {
            assertThat(denied.statusCode()).isEqualTo(401);
            assertThat(json(denied.body()).at("/error/type").asText()).isEqualTo("authentication_error");
            assertThat(denied.body()).doesNotContain("sk-ant");
        }
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after")).hasValue("1");
        assertThat(json(limited.body()).at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(upstream.received()).hasSize(4);
        assertThat(upstream.received("claude-fake").getLast().header("x-api-key")).hasValue("sk-ant-1");
    }

    @Test
    void stopSequencesAndMaxTokensEndTheAnswerAsAnthropicSays() throws Exception {
        var stopped = message("claude-fake", "hi");
        stopped.putArray("stop_sequences").add("nothing here").add(" from");
        var limited = message("claude-fake", "hi").put("max_tokens", 2);

        JsonNode atStop = client.answer(stopped);
        JsonNode atLimit = client.answer(limited);
        JsonNode streamedStop = accumulate(client.stream(stopped));

        assertThat(atStop.at("/content/0/text").asText()).isEqualTo("Hello");
        assertThat(atStop.get("stop_reason").asText()).isEqualTo("stop_sequence");
        assertThat(atStop.get("stop_sequence").asText()).isEqualTo(" from");
        assertThat(streamedStop.get("stop_sequence").asText()).isEqualTo(" from");
        assertThat(atLimit.at("/content/0/text").asText()).isEqualTo("Hello from");
        assertThat(atLimit.get("stop_reason").asText()).isEqualTo("max_tokens");
        assertThat(atLimit.get("stop_sequence").isNull()).isTrue();
    }

    @Test
    void theOpenAiDialectStillAnswersItsOwnPath() throws Exception {
        assertThat(new TestClient(upstream).chatCompletion(TestClient.chat("fake-model", "hi")).statusCode()).isEqualTo(200);
    }
}
