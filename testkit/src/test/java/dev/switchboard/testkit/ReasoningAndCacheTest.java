package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.chat;
import static dev.switchboard.testkit.TestClient.chunks;
import static dev.switchboard.testkit.TestClient.json;
import static dev.switchboard.testkit.TestClient.streaming;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReasoningAndCacheTest extends FakeUpstreamSupport {
    private final TestClient client = new TestClient(upstream);

    @Test
    void reasoningSuffixAddsReasoningContentAndCountsItsTokens() throws Exception {
        JsonNode completion = json(client.chatCompletion(chat("fake-reasoning", "Say hi")).body());

        JsonNode message = completion.at("/choices/0/message");
        assertThat(message.get("reasoning_content").asText()).isNotBlank();
        assertThat(message.has("reasoning")).isFalse();
        assertThat(message.get("content").asText()).isEqualTo("Hello from fake-reasoning! You said: Say hi");
        int reasoningTokens = completion.at("/usage/completion_tokens_details/reasoning_tokens").asInt();
        assertThat(reasoningTokens).isPositive();
        assertThat(completion.at("/usage/completion_tokens").asInt()).isEqualTo(7 + reasoningTokens);
        assertThat(completion.at("/usage/total_tokens").asInt())
                .isEqualTo(completion.at("/usage/prompt_tokens").asInt() + 7 + reasoningTokens);
    }

    @Test
    void reasoningFieldSuffixAlsoSendsReasoning() throws Exception {
        JsonNode message = json(client.chatCompletion(chat("fake-reasoningfield", "Say hi")).body()).at("/choices/0/message");

        assertThat(message.get("reasoning").asText()).isNotBlank().isEqualTo(message.get("reasoning_content").asText());
    }

    @Test
    void reasoningEffortInTheRequestTurnsReasoningOn() throws Exception {
        JsonNode completion = json(client.chatCompletion(chat("fake-model", "Say hi").put("reasoning_effort", "low")).body());

        assertThat(completion.at("/choices/0/message/reasoning_content").asText()).isNotBlank();
        assertThat(completion.at("/usage/completion_tokens_details/reasoning_tokens").asInt()).isPositive();
    }

    @Test
    void streamedReasoningComesBeforeContent() throws Exception {
        String plainReasoning = json(client.chatCompletion(chat("fake-reasoning", "Say hi")).body())
                .at("/choices/0/message/reasoning_content").asText();

        List<JsonNode> chunks = chunks(client.chatCompletion(streaming(chat("fake-reasoning", "Say hi"), true)).body());

        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        int reasoningChunks = 0;
        for (JsonNode chunk : chunks) {
            JsonNode delta = chunk.at("/choices/0/delta");
            if (delta.has("reasoning_content")) {
                assertThat(content).as("no reasoning after content started").isEmpty();
                reasoning.append(delta.get("reasoning_content").asText());
                reasoningChunks++;
            }
            content.append(delta.path("content").asText());
        }
        assertThat(reasoningChunks).isGreaterThan(1);
        assertThat(reasoning.toString()).isEqualTo(plainReasoning);
        assertThat(content.toString()).isEqualTo("Hello from fake-reasoning! You said: Say hi");
        assertThat(chunks.getLast().at("/usage/completion_tokens_details/reasoning_tokens").asInt())
                .isEqualTo(reasoningChunks);
    }

    @Test
    void reasoningPrecedesAStreamedToolCall() throws Exception {
        var body = streaming(chat("fake-reasoning", "Weather?"), false);
        body.putArray("tools").addObject().put("type", "function").putObject("function").put("name", "get_weather");

        List<JsonNode> chunks = chunks(client.chatCompletion(body).body());

        assertThat(chunks.getFirst().at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(chunks.get(1).at("/choices/0/delta/reasoning_content").asText()).isNotEmpty();
        assertThat(chunks.getLast().at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(chunks).anySatisfy(c -> assertThat(c.at("/choices/0/delta/tool_calls/0/function/name").asText())
                .isEqualTo("get_weather"));
    }

    @Test
    void cacheSuffixReportsHalfThePromptAsCached() throws Exception {
        JsonNode usage = json(client.chatCompletion(chat("fake-cache", "x".repeat(400))).body()).get("usage");

        assertThat(usage.get("prompt_tokens").asInt()).isEqualTo(100);
        assertThat(usage.at("/prompt_tokens_details/cached_tokens").asInt()).isEqualTo(50);
    }

    @Test
    void suffixesCombine() throws Exception {
        JsonNode completion = json(client.chatCompletion(chat("fake-reasoning-cache", "x".repeat(40))).body());

        assertThat(completion.at("/choices/0/message/reasoning_content").asText()).isNotBlank();
        assertThat(completion.at("/usage/prompt_tokens_details/cached_tokens").asInt()).isEqualTo(5);
    }

    @Test
    void aSuffixMustBeAWholeSegment() throws Exception {
        // "hangar" contains "hang" but is not the -hang suffix; the request must be answered.
        assertThat(client.chatCompletion(chat("gpt-hangar", "hi")).statusCode()).isEqualTo(200);
    }
}
