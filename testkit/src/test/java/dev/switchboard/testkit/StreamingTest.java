package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.chat;
import static dev.switchboard.testkit.TestClient.chunks;
import static dev.switchboard.testkit.TestClient.json;
import static dev.switchboard.testkit.TestClient.streaming;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class StreamingTest extends FakeUpstreamSupport {
    private final TestClient client = new TestClient(upstream);

    @Test
    void streamsOneChunkPerWordThenFinishThenDone() throws Exception {
        HttpResponse<String> response = client.chatCompletion(streaming(chat("fake-model", "Say hi"), false));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/event-stream"));
        List<JsonNode> chunks = chunks(response.body());
        assertThat(chunks).hasSize(1 + 7 + 1); // role, seven words, finish

        JsonNode first = chunks.getFirst();
        assertThat(first.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(first.at("/choices/0/delta/content").asText()).isEmpty();
        assertThat(first.at("/choices/0/delta/content").isTextual()).isTrue();

        String id = first.get("id").asText();
        assertThat(id).matches("chatcmpl-fake-\\d+");
        for (JsonNode chunk : chunks) {
            assertThat(chunk.get("id").asText()).isEqualTo(id);
            assertThat(chunk.get("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(chunk.get("created").asLong()).isEqualTo(first.get("created").asLong());
            assertThat(chunk.get("model").asText()).isEqualTo("fake-model");
            assertThat(chunk.has("usage")).as("usage only when asked").isFalse();
        }
        List<JsonNode> words = chunks.subList(1, chunks.size() - 1);
        assertThat(words).allSatisfy(c -> assertThat(c.at("/choices/0/finish_reason").isNull()).isTrue());
        String text = words.stream().map(c -> c.at("/choices/0/delta/content").asText()).collect(Collectors.joining());
        assertThat(text).isEqualTo("Hello from fake-model! You said: Say hi");

        JsonNode finish = chunks.getLast();
        assertThat(finish.at("/choices/0/delta").isEmpty()).isTrue();
        assertThat(finish.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void streamedTextEqualsPlainText() throws Exception {
        String plain = json(client.chatCompletion(chat("fake-model", "the same words either way")).body())
                .at("/choices/0/message/content").asText();

        String streamed = chunks(client.chatCompletion(streaming(chat("fake-model", "the same words either way"), false)).body())
                .stream().map(c -> c.at("/choices/0/delta/content").asText()).collect(Collectors.joining());

        assertThat(streamed).isEqualTo(plain);
    }

    @Test
    void usageChunkComesLastWithEmptyChoicesWhenAsked() throws Exception {
        List<JsonNode> chunks = chunks(client.chatCompletion(streaming(chat("fake-model", "Say hi"), true)).body());

        assertThat(chunks).hasSize(1 + 7 + 1 + 1);
        JsonNode usageChunk = chunks.getLast();
        assertThat(usageChunk.get("choices").isArray()).isTrue();
        assertThat(usageChunk.get("choices").isEmpty()).isTrue();
        assertThat(usageChunk.at("/usage/prompt_tokens").asInt()).isEqualTo(2);
        assertThat(usageChunk.at("/usage/completion_tokens").asInt()).isEqualTo(7);
        assertThat(usageChunk.at("/usage/total_tokens").asInt()).isEqualTo(9);
        assertThat(usageChunk.get("id").asText()).isEqualTo(chunks.getFirst().get("id").asText());
        for (JsonNode chunk : chunks.subList(0, chunks.size() - 1)) {
            assertThat(chunk.get("usage").isNull()).as("earlier chunks carry usage: null").isTrue();
        }
        assertThat(chunks.get(chunks.size() - 2).at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void maxTokensEndsTheStreamWithLength() throws Exception {
        List<JsonNode> chunks = chunks(client.chatCompletion(
                streaming(chat("fake-model", "Say hi").put("max_tokens", 2), false)).body());

        assertThat(chunks).hasSize(1 + 2 + 1);
        assertThat(chunks.getLast().at("/choices/0/finish_reason").asText()).isEqualTo("length");
    }
}
