package dev.switchboard.engine.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.ResponsesRequirement;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OpenAiResponsesDialectTest {
    private final OpenAiResponsesDialect dialect = new OpenAiResponsesDialect();

    private static Attempt attempt(ChatRequest request, String baseUrl, Capabilities caps, ReasoningProfile reasoning) {
        return attempt(request, baseUrl, caps, reasoning, Set.of());
    }

    private static Attempt attempt(ChatRequest request, String baseUrl, Capabilities caps, ReasoningProfile reasoning,
                                   Set<String> refused) {
        ProviderConfig provider = new ProviderConfig("oai", ProviderType.OPENAI_RESPONSES, URI.create(baseUrl),
                List.of("sk-provider"), Timeouts.DEFAULT, Map.of("OpenAI-Organization", "org-1"));
        RouteTarget target = new RouteTarget("oai", "gpt-up");
        ModelEntry model = new ModelEntry("m", List.of(), Optional.empty(), "test", 100_000, 4096, caps, reasoning,
                Pricing.FREE, List.of(), List.of(target), refused, ResponsesRequirement.ONLY, Optional.empty());
        return new Attempt(request, model, provider, target, "sk-provider");
    }

    private static ChatRequest ask() {
        return ChatRequest.builder("m").addMessage(Message.user("hi"))
                .sampling(Sampling.DEFAULT.withTemperature(Optional.of(0.3)))
                .reasoning(new Reasoning(Optional.of(Reasoning.Effort.LOW), Optional.empty(), OptionalInt.empty(),
                        Reasoning.Format.SEPARATE, false, Optional.empty()))
                .stop(List.of("STOP")).build();
    }

    private static final Capabilities REASONS = new Capabilities(true, false, false, false, false);

    @Test
    void callGoesToResponsesWithTheProviderKeyAndKeepsNothingUpstream() {
        HttpCall call = dialect.call(attempt(ask(), "https://api.openai.com/v1/", Capabilities.TEXT_ONLY, ReasoningProfile.NONE), true);

        assertThat(call.uri()).hasToString("https://api.openai.com/v1/responses");
        assertThat(call.headers()).containsEntry("authorization", "Bearer sk-provider").containsEntry("OpenAI-Organization", "org-1");
        assertThat(call.streaming()).isTrue();
        JsonNode body = Json.parse(call.body());
        assertThat(body.path("model").asText()).isEqualTo("gpt-up");
        assertThat(body.path("store").asBoolean(true)).isFalse();
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.has("stop")).as("the format has no stop sequences").isFalse();
    }

    @Test
    void onlyReasoningModelsGetReasoningControlsAndEncryptedReasoning() {
        JsonNode plain = Json.parse(dialect.call(attempt(ask(), "https://h/v1", Capabilities.TEXT_ONLY, ReasoningProfile.NONE), false).body());
        assertThat(plain.has("include")).isFalse();
        assertThat(plain.has("reasoning")).isFalse();
        assertThat(plain.path("temperature").asDouble()).isEqualTo(0.3);

        JsonNode hybrid = Json.parse(dialect.call(attempt(ask(), "https://h/v1", REASONS,
                new ReasoningProfile(ReasoningProfile.Family.HYBRID, List.of(Reasoning.Effort.LOW))), false).body());
        assertThat(hybrid.path("include").toString()).isEqualTo("[\"reasoning.encrypted_content\"]");
        assertThat(hybrid.path("reasoning").path("effort").asText()).isEqualTo("low");
        assertThat(hybrid.path("temperature").asDouble()).isEqualTo(0.3);

        JsonNode refusing = Json.parse(dialect.call(attempt(ask(), "https://h/v1", REASONS,
                new ReasoningProfile(ReasoningProfile.Family.ALWAYS, List.of(Reasoning.Effort.LOW)), Set.of("temperature")),
                false).body());
        assertThat(refusing.has("include")).isTrue();
        assertThat(refusing.has("temperature")).as("a parameter the model refuses is not sent").isFalse();
    }

    @Test
    void answersAndStreamsApplyTheRequestsStopSequences() {
        Attempt attempt = attempt(ask(), "https://h/v1", Capabilities.TEXT_ONLY, ReasoningProfile.NONE);
        String whole = """
                {"id":"resp_1","object":"response","status":"completed","model":"gpt-up","output":[{"type":"message",
                "id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Go STOP now",
                "annotations":[]}]}],"usage":{"input_tokens":3,"output_tokens":3}}""";
        ChatResponse r = dialect.response(attempt, whole.getBytes(StandardCharsets.UTF_8));
        assertThat(r.text()).isEqualTo("Go ");
        assertThat(r.stopReason()).isEqualTo(StopReason.STOP_SEQUENCE);

        Dialect.StreamParser parser = dialect.streamParser(attempt);
        List<StreamEvent> events = parser.onEvent(Optional.of("response.created"),
                "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"gpt-up\"}}");
        assertThat(events).singleElement().isInstanceOf(StreamEvent.MessageStart.class);
        assertThat(parser.onEnd()).singleElement().isInstanceOf(StreamEvent.StreamError.class);
    }

    @Test
    void errorsKeepTheProvidersMessageAndRetryClass() {
        byte[] body = "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(dialect.error(429, body).retryable()).isTrue();
        assertThat(dialect.error(429, body).message()).isEqualTo("Rate limit reached");
        assertThat(dialect.error(400, "{}".getBytes(StandardCharsets.UTF_8)).retryable()).isFalse();
    }
}
