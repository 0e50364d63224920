package dev.switchboard.wire.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.Passthrough;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Role;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.Signature;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class OpenAiUpstreamRequestWriterTest {

    private static ChatRequest.Builder base() {
        return ChatRequest.builder("gw-model").addMessage(Message.user("q"));
    }

    @Test
    void toolResultImagesFollowTheToolMessagesInAUserMessage() {
        ChatRequest r = ChatRequest.builder("m").messages(List.of(
                new Message(Role.ASSISTANT, List.of(ContentBlock.ToolCall.of("c1", "shot", "{}"))),
                new Message(Role.USER, List.of(new ContentBlock.ToolResult("c1", Optional.of("shot"), List.of(
                        ContentBlock.Text.of("see image"),
                        ContentBlock.Image.of(new MediaSource.Base64("image/png", "AAA"))), true, Optional.empty()),
                        ContentBlock.Text.of("what is it?"))))).build();
        JsonNode m = OpenAi.toUpstream(r, "u", false).path("messages");
        assertThat(m.size()).isEqualTo(3);
        assertThat(m.get(1).path("role").asText()).isEqualTo("tool");
        assertThat(m.get(1).path("content").asText()).isEqualTo("see image");
        assertThat(m.get(2).path("role").asText()).isEqualTo("user");
        assertThat(m.get(2).path("content").get(0).path("image_url").path("url").asText())
                .isEqualTo("data:image/png;base64,AAA");
        assertThat(m.get(2).path("content").get(1).path("text").asText()).isEqualTo("what is it?");
    }

    @Test
    void reasoningSignedElsewhereIsNotSentAndOpenAiSignedReasoningGoesBackInDetails() {
        ChatRequest r = base().addMessage(new Message(Role.ASSISTANT, List.of(
                new ContentBlock.Thinking("mine", Optional.of(new Signature("openai", "s-or"))),
                new ContentBlock.Thinking("theirs", Optional.of(new Signature("anthropic", "s-an"))),
                new ContentBlock.RedactedThinking("enc-or", "openai"),
                new ContentBlock.RedactedThinking("enc-an", "anthropic"),
                ContentBlock.Text.of("answer")))).build();
        JsonNode a = OpenAi.toUpstream(r, "u", false).path("messages").get(1);
        assertThat(a.path("reasoning_content").asText()).isEqualTo("mine");
        assertThat(Json.write(a)).doesNotContain("theirs").doesNotContain("s-an").doesNotContain("enc-an");
        JsonNode details = a.path("reasoning_details");
        assertThat(details.size()).isEqualTo(2);
        assertThat(details.get(0).path("signature").asText()).isEqualTo("s-or");
        assertThat(details.get(0).has("format")).isFalse();
        assertThat(details.get(1).path("data").asText()).isEqualTo("enc-or");

        OpenAiUpstreamOptions quiet = new OpenAiUpstreamOptions(OpenAiUpstreamOptions.MaxTokensField.MAX_TOKENS,
                false, false, false);
        JsonNode q = OpenAi.toUpstream(r, "u", false, quiet).path("messages").get(1);
        assertThat(q.has("reasoning_content")).isFalse();
        assertThat(q.has("reasoning_details")).isFalse();
    }

    @Test
    void geminiToolSignaturesOnlyWhenAskedFor() {
        ChatRequest r = base().addMessage(new Message(Role.ASSISTANT, List.of(
                new ContentBlock.ToolCall("c", "f", "{}", Optional.of(new Signature("gemini", "gs")))))).build();
        assertThat(Json.write(OpenAi.toUpstream(r, "u", false))).doesNotContain("gs");
        OpenAiUpstreamOptions gemini = new OpenAiUpstreamOptions(OpenAiUpstreamOptions.MaxTokensField.MAX_TOKENS,
                false, true, true);
        assertThat(OpenAi.toUpstream(r, "u", false, gemini).path("messages").get(1).path("tool_calls").get(0)
                .path("extra_content").path("google").path("thought_signature").asText()).isEqualTo("gs");
    }

    @Test
    void serviceFieldsAreNeverSentAndPassthroughNeverOverrides() {
        ChatRequest r = base()
                .fallbackModels(List.of("x")).transforms(List.of("middle-out")).skills(List.of(new dev.switchboard.model.SkillRef("s", "skill")))
                .ignoreDefaults(true)
                .reasoning(new Reasoning(Optional.empty(), Optional.of(Reasoning.Mode.ON), OptionalInt.of(100),
                        Reasoning.Format.INLINE, true, Optional.empty()))
                .maxTokens(5)
                .passthrough(new Passthrough("openai", Map.of("max_tokens", Json.parse("999"),
                        "model", Json.parse("\"evil\""), "service_tier", Json.parse("\"flex\""))))
                .build();
        JsonNode o = OpenAi.toUpstream(r, "u", false);
        assertThat(o.path("model").asText()).isEqualTo("u");
        assertThat(o.path("max_tokens").asInt()).isEqualTo(5);
        assertThat(o.path("service_tier").asText()).isEqualTo("flex");
        for (String f : List.of("models", "transforms", "reasoning", "thinking", "thinking_budget", "ignore_defaults",
                "skill", "skills", "reasoning_effort", "stream", "stream_options")) {
            assertThat(o.has(f)).as(f).isFalse();
        }
    }

    @Test
    void passthroughOfAnotherFormatIsIgnored() {
        ChatRequest r = base().passthrough(new Passthrough("anthropic", Map.of("top_k", Json.parse("5")))).build();
        assertThat(OpenAi.toUpstream(r, "u", false).has("top_k")).isFalse();
    }

    @Test
    void toolChoiceAndParallelCallsOnlyWithTools() {
        ChatRequest r = base().toolChoice(ToolChoice.REQUIRED).parallelToolCalls(Optional.of(false)).build();
        JsonNode o = OpenAi.toUpstream(r, "u", false);
        assertThat(o.has("tool_choice")).isFalse();
        assertThat(o.has("parallel_tool_calls")).isFalse();
    }

    @Test
    void topKOnlyWhenTheUpstreamTakesIt() {
        ChatRequest r = base().sampling(Sampling.DEFAULT.withTemperature(Optional.of(0.2))).build();
        r = r.toBuilder().sampling(new Sampling(Optional.of(0.2), Optional.empty(), OptionalInt.of(40),
                Optional.empty(), Optional.empty(), java.util.OptionalLong.empty())).build();
        assertThat(OpenAi.toUpstream(r, "u", false).has("top_k")).isFalse();
        OpenAiUpstreamOptions topK = new OpenAiUpstreamOptions(OpenAiUpstreamOptions.MaxTokensField.MAX_TOKENS,
                true, true, false);
        assertThat(OpenAi.toUpstream(r, "u", false, topK).path("top_k").asInt()).isEqualTo(40);
    }

    @Test
    void documentsTravelAsFilesTextOrNotAtAll() {
        ChatRequest r = ChatRequest.builder("m").addMessage(new Message(Role.USER, List.of(
                new ContentBlock.Document(new MediaSource.PlainText("body"), Optional.of("Title"), Optional.empty()),
                new ContentBlock.Document(new MediaSource.Url("https://x/a.pdf"), Optional.empty(), Optional.empty()),
                new ContentBlock.Document(new MediaSource.FileRef("file-1", "application/pdf"), Optional.empty(),
                        Optional.empty()),
                new ContentBlock.Opaque("anthropic", Json.parse("{\"type\":\"search_result\"}"))))).build();
        JsonNode content = OpenAi.toUpstream(r, "u", false).path("messages").get(0).path("content");
        assertThat(content.size()).isEqualTo(2);
        assertThat(content.get(0).path("text").asText()).isEqualTo("Title\n\nbody");
        assertThat(content.get(1).path("file").path("file_id").asText()).isEqualTo("file-1");
    }

    @Test
    void streamingAsksForUsage() {
        JsonNode o = OpenAi.toUpstream(base().build(), "u", true);
        assertThat(o.path("stream").asBoolean()).isTrue();
        assertThat(o.path("stream_options").path("include_usage").asBoolean()).isTrue();
    }
}
