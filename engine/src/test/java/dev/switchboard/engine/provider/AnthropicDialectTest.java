package dev.switchboard.engine.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AnthropicDialectTest {
    private final AnthropicDialect dialect = new AnthropicDialect();

    private static Attempt attempt(ChatRequest request, String baseUrl, Map<String, String> headers, String key) {
        ProviderConfig provider = new ProviderConfig("claude", ProviderType.ANTHROPIC, URI.create(baseUrl),
                List.of(key), Timeouts.DEFAULT, headers);
        RouteTarget target = new RouteTarget("claude", "claude-up");
        ModelEntry model = new ModelEntry("m", List.of(), Optional.empty(), "test", 100_000, 777,
                Capabilities.TEXT_ONLY, ReasoningProfile.NONE, Pricing.FREE, List.of(), List.of(target));
        return new Attempt(request, model, provider, target, key);
    }

    private static ChatRequest hello() {
        return ChatRequest.builder("m").addMessage(Message.user("hi")).build();
    }

    @Test
    void callGoesToV1MessagesWithTheProviderKeyAndVersionAndTheModelsCapAsDefaultMaxTokens() {
        HttpCall call = dialect.call(attempt(hello(), "https://api.anthropic.com/", Map.of(), "sk-provider"), true);

        assertThat(call.uri()).hasToString("https://api.anthropic.com/v1/messages");
        assertThat(call.headers()).containsEntry("x-api-key", "sk-provider")
                .containsEntry("anthropic-version", "2023-06-01")
                .doesNotContainKey("anthropic-beta")
                .doesNotContainKey("authorization");
        assertThat(call.streaming()).isTrue();
        JsonNode body = Json.parse(call.body());
        assertThat(body.path("model").asText()).isEqualTo("claude-up");
        assertThat(body.path("max_tokens").asInt()).isEqualTo(777);
        assertThat(body.path("stream").asBoolean()).isTrue();
    }

    @Test
    void aProviderWithoutKeysSendsNoKeyHeader() {
        HttpCall call = dialect.call(attempt(hello(), "http://127.0.0.1:1", Map.of(), ""), false);

        assertThat(call.headers()).doesNotContainKey("x-api-key").containsKey("anthropic-version");
    }

    @Test
    void aOneHourCacheMarkerAddsItsBetaToTheConfiguredOnesEachOnce() {
        ChatRequest cached = ChatRequest.builder("m").addMessage(new Message(Role.USER, List.of(
                new ContentBlock.Text("long prefix", Optional.of(CacheMarker.ONE_HOUR), Optional.empty())))).build();

        HttpCall call = dialect.call(attempt(cached, "http://127.0.0.1:1",
                Map.of("Anthropic-Beta", "context-1m-2025-08-07, extended-cache-ttl-2025-04-11", "x-team", "blue"),
                "k"), false);

        assertThat(call.headers()).containsEntry("anthropic-beta", "context-1m-2025-08-07,extended-cache-ttl-2025-04-11")
                .containsEntry("x-team", "blue")
                .doesNotContainKey("Anthropic-Beta");
    }

    @Test
    void upstreamErrorsKeepTheMessageAndClassifyRetries() {
        byte[] overloaded = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"
                .getBytes(StandardCharsets.UTF_8);
        GatewayError e = dialect.error(529, overloaded);

        assertThat(e.message()).isEqualTo("Overloaded");
        assertThat(e.retryable()).isTrue();
        assertThat(dialect.error(400, "{}".getBytes(StandardCharsets.UTF_8)).retryable()).isFalse();
    }

    @Test
    void streamParserReadsNamedEvents() {
        Dialect.StreamParser parser = dialect.streamParser(attempt(hello(), "https://api.anthropic.com", Map.of(), "k"));

        List<StreamEvent> events = parser.onEvent(Optional.of("message_start"),
                "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude-up\",\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}");

        assertThat(events).singleElement().isInstanceOf(StreamEvent.MessageStart.class);
        assertThat(parser.onEnd()).singleElement().isInstanceOf(StreamEvent.StreamError.class);
    }
}
