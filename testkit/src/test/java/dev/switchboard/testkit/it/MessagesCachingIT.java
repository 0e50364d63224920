package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.anthropic.client.AnthropicClient;
import com.anthropic.errors.BadRequestException;
import com.anthropic.models.messages.CacheControlEphemeral;
import com.anthropic.models.messages.CacheCreation;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.TextBlockParam;
import com.anthropic.models.messages.Usage;
import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Prompt caching through {@code POST /v1/messages} (spec 2.6-2.8, 8): {@code cache_control} reaches an
 * Anthropic upstream where the client put it, the one-hour TTL brings its beta header, at most four
 * breakpoints, and usage reports reads and writes (zero-valued cache fields omitted), also from an OpenAI
 * upstream's cached tokens. The fake caches any prefix, so short prompts do; each test uses its own prompt.
 */
class MessagesCachingIT {
    @RegisterExtension
    static final SdkGateway<AnthropicClient> GATEWAY = MessagesItSupport.anthropicGateway();

    private static final CacheControlEphemeral FIVE_MINUTES = CacheControlEphemeral.builder().build();
    private static final CacheControlEphemeral ONE_HOUR = CacheControlEphemeral.builder()
            .ttl(CacheControlEphemeral.Ttl.TTL_1H).build();

    private static TextBlockParam block(String text, CacheControlEphemeral cache) {
        return TextBlockParam.builder().text(text).cacheControl(cache).build();
    }

    private static MessageCreateParams cachedSystem(String system, String question) {
        return MessageCreateParams.builder().model("claude-chat").maxTokens(200)
                .systemOfTextBlockParams(List.of(block(system, FIVE_MINUTES)))
                .addUserMessage(question)
                .build();
    }

    @Test
    void aCachedSystemPrefixIsWrittenOnceThenReadAndUsageSaysSo() {
        String system = "You are the reference librarian of a large city library. Answer in one sentence.";
        Message first = GATEWAY.client().messages().create(cachedSystem(system, "Where are the atlases?"));
        Message second = GATEWAY.client().messages().create(cachedSystem(system, "Where are the novels?"));

        Usage written = first.usage();
        assertThat(written.cacheCreationInputTokens()).hasValueSatisfying(n -> assertThat(n).isPositive());
        CacheCreation split = written.cacheCreation().orElseThrow();
        assertThat(split.ephemeral5mInputTokens()).isEqualTo(written.cacheCreationInputTokens().get());
        assertThat(split.ephemeral1hInputTokens()).isZero();
        assertThat(written.cacheReadInputTokens()).as("zero-valued cache fields are omitted").isEmpty();

        Usage read = second.usage();
        assertThat(read.cacheReadInputTokens()).contains(written.cacheCreationInputTokens().get());
        assertThat(read.cacheCreationInputTokens()).isEmpty();
        assertThat(read.cacheCreation()).isEmpty();

        JsonNode sent = GATEWAY.gateway().upstream().received("up-claude").getFirst().json();
        assertThat(sent.path("system").get(0).path("text").asText()).isEqualTo(system);
        assertThat(sent.path("system").get(0).path("cache_control")).isEqualTo(ItSupport.json("{\"type\":\"ephemeral\"}"));
    }

    @Test
    void streamedUsageCarriesTheCacheFieldsFromMessageStartToMessageDelta() {
        String system = "You are a patient tutor of medieval history who always cites a primary source.";
        GATEWAY.client().messages().create(cachedSystem(system, "Who was Charlemagne?"));

        List<RawMessageStreamEvent> events = MessagesItSupport.stream(GATEWAY.client(), cachedSystem(system, "Who was Alcuin?"));

        Usage atStart = events.getFirst().asMessageStart().message().usage();
        assertThat(atStart.cacheReadInputTokens()).hasValueSatisfying(n -> assertThat(n).isPositive());
        Message assembled = MessagesItSupport.accumulate(events);
        assertThat(assembled.usage().cacheReadInputTokens()).isEqualTo(atStart.cacheReadInputTokens());
        assertThat(assembled.usage().cacheCreationInputTokens()).isEmpty();
    }

    @Test
    void markersOnToolsSystemAndMessagesPassThroughAndTheOneHourTtlBringsItsBeta() {
        MessageCreateParams params = MessageCreateParams.builder().model("claude-chat").maxTokens(200)
                .addTool(MessagesItSupport.tool("lookup_shelf", "topic").toBuilder().cacheControl(ONE_HOUR).build())
                .systemOfTextBlockParams(List.of(block("You shelve books by the Dewey decimal system.", ONE_HOUR)))
                .addUserMessageOfContentBlockParams(List.of(
                        com.anthropic.models.messages.ContentBlockParam.ofText(block("Where do atlases go?", FIVE_MINUTES))))
                .build();

        Message message = GATEWAY.client().messages().create(params);

        CacheCreation split = message.usage().cacheCreation().orElseThrow();
        assertThat(split.ephemeral1hInputTokens()).isPositive();
        assertThat(split.ephemeral5mInputTokens()).isPositive();
        assertThat(message.usage().cacheCreationInputTokens())
                .contains(split.ephemeral1hInputTokens() + split.ephemeral5mInputTokens());
        RecordedRequest sent = GATEWAY.gateway().upstream().received("up-claude").getFirst();
        assertThat(sent.header("anthropic-beta").orElse("")).contains("extended-cache-ttl-2025-04-11");
        JsonNode body = sent.json();
        assertThat(body.path("tools").get(0).path("cache_control")).isEqualTo(ItSupport.json("{\"type\":\"ephemeral\",\"ttl\":\"1h\"}"));
        assertThat(body.path("system").get(0).path("cache_control").path("ttl").asText()).isEqualTo("1h");
        assertThat(body.path("messages").get(0).path("content").get(0).path("cache_control"))
                .isEqualTo(ItSupport.json("{\"type\":\"ephemeral\"}"));
    }

    @Test
    void aFifthBreakpointIsA400NamingItAndNothingReachesTheUpstream() {
        List<TextBlockParam> system = List.of(block("a", FIVE_MINUTES), block("b", FIVE_MINUTES),
                block("c", FIVE_MINUTES), block("d", FIVE_MINUTES), block("e", FIVE_MINUTES));

        BadRequestException e = assertThrows(BadRequestException.class, () -> GATEWAY.client().messages().create(
                MessageCreateParams.builder().model("claude-chat").maxTokens(10).systemOfTextBlockParams(system)
                        .addUserMessage("hi").build()));

        JsonNode error = e.body().convert(JsonNode.class).path("error");
        assertThat(error.path("param").asText()).isEqualTo("system[4].cache_control");
        assertThat(error.path("message").asText()).contains("4");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void cachedTokensFromAnOpenAiUpstreamAreReportedAsCacheReadsOutsideInputTokens() {
        Message message = GATEWAY.client().messages().create(MessagesItSupport.ask("gpt-cache", "What is cached when nothing is marked?"));

        // the OpenAI fake reports half of its prompt (ceil(38 / 4) = 10 tokens) as cached
        assertThat(message.usage().cacheReadInputTokens()).contains(5L);
        assertThat(message.usage().inputTokens()).isEqualTo(5);
        assertThat(message.usage().cacheCreationInputTokens()).isEmpty();
    }
}
