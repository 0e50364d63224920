package dev.switchboard.engine.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.defaults.SavedDefaultsService;
import dev.switchboard.engine.defaults.DefaultParams;
import dev.switchboard.engine.media.FetchLimits;
import dev.switchboard.engine.media.ImageFetcher;
import dev.switchboard.engine.media.ImageInliner;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.route.FailoverRouter;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.model.Sampling;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The request-feature stages of the pipeline, with a scripted provider standing in for the upstream. */
class ChatPipelineFeaturesTest {
    private static final Caller CALLER = new Caller("usr_1", "key_1", "payg", List.of(), List.of());

    private final RecordingAdapter adapter = new RecordingAdapter("plain answer");
    private final List<Attempt> attempts = adapter.attempts;
    private final Set<String> failing = adapter.failing;

    private static ModelEntry model(String id, String provider, long context, Capabilities caps) {
        return new ModelEntry(id, List.of(), Optional.empty(), "t", context, 100, caps, ReasoningProfile.NONE, Pricing.FREE,
                List.of(), List.of(new RouteTarget(provider, "up-" + id)));
    }

    private static final Capabilities JSON = new Capabilities(false, false, false, false, true);
    private static final Capabilities VISION = new Capabilities(false, true, false, false, false);

    private final Catalog catalog = new Catalog(
            List.of(provider("openai", ProviderType.OPENAI), provider("gemini", ProviderType.GEMINI)),
            List.of(model("json", "openai", 10_000, JSON), model("text", "openai", 10_000, Capabilities.TEXT_ONLY),
                    model("small", "openai", 400, Capabilities.TEXT_ONLY), model("large", "openai", 100_000, Capabilities.TEXT_ONLY),
                    model("vision-bytes", "gemini", 10_000, VISION), model("vision-urls", "openai", 10_000, VISION)));

    private final Map<String, String> savedDefaults = new HashMap<>();
    private final SavedDefaultsService.Lookup lookup = (user, model) ->
            Optional.ofNullable(savedDefaults.get(user + "/" + model)).map(DefaultParams::parseStored);

    private final ChatPipeline chat = new ChatPipeline(catalog, lookup, Admission.ADMIT_ALL,
            new FailoverRouter(catalog, Map.of(ProviderType.OPENAI, adapter, ProviderType.GEMINI, adapter),
                    new GatewayMetrics(new SimpleMeterRegistry()), new ImageInliner(new ImageFetcher(FetchLimits.DEFAULT))),
            Settlement.RECORD_NOTHING, new GatewayMetrics(new SimpleMeterRegistry()));

    private static ProviderConfig provider(String id, ProviderType type) {
        // the scripted provider answers whole answers only
        return new ProviderConfig(id, type, URI.create("http://127.0.0.1:1"), List.of("k"), Timeouts.DEFAULT, Map.of(), false);
    }

    private ChatResponse complete(ChatRequest request) {
        return chat.complete(CALLER, request, new RequestTrace("req_1", "test"));
    }

    private static ChatRequest.Builder ask(String model) {
        return ChatRequest.builder(model).addMessage(Message.user("hi"));
    }

    // --- structured output

    @Test
    void jsonIsExtractedFromAFencedAnswerOnAModelThatSupportsIt() {
        adapter.answerText = "Sure:\n```json\n{\"ok\": true}\n```";
        assertThat(complete(ask("json").responseFormat(ResponseFormat.JSON_OBJECT).build()).text()).isEqualTo("{\"ok\": true}");
    }

    @Test
    void aModelWithoutJsonSupportKeepsItsProse() {
        adapter.answerText = "Sure:\n```json\n{\"ok\": true}\n```";
        assertThat(complete(ask("text").responseFormat(ResponseFormat.JSON_OBJECT).build()).text()).isEqualTo(adapter.answerText);
        assertThat(complete(ask("json").build()).text()).isEqualTo(adapter.answerText);
    }

    // --- saved defaults

    @Test
    void savedDefaultsOfEachCandidateModelFillWhatTheRequestLeftUnset() {
        savedDefaults.put("usr_1/text", "{\"temperature\": 0.2, \"max_tokens\": 50}");
        savedDefaults.put("usr_1/large", "{\"temperature\": 1.1}");
        failing.add("up-text");

        complete(ask("text").sampling(Sampling.DEFAULT.withTopP(Optional.of(0.5))).fallbackModels(List.of("large")).build());

        assertThat(attempts).hasSize(2);
        ChatRequest toText = attempts.get(0).request();
        assertThat(toText.sampling().temperature()).isEmpty(); // the request chose top_p
        assertThat(toText.maxTokens()).hasValue(50);
        ChatRequest toLarge = attempts.get(1).request();
        assertThat(toLarge.sampling().temperature()).isEmpty();
        assertThat(toLarge.maxTokens()).isEmpty();

        attempts.clear();
        failing.clear();
        complete(ask("text").build());
        assertThat(attempts.getFirst().request().sampling().temperature()).contains(0.2);
    }

    @Test
    void ignoreDefaultsSkipsThem() {
        savedDefaults.put("usr_1/text", "{\"temperature\": 0.2}");
        complete(ask("text").ignoreDefaults(true).build());
        assertThat(attempts.getFirst().request().sampling().temperature()).isEmpty();
    }

    @Test
    void savedMaxTokensAreCappedLikeRequestValues() {
        savedDefaults.put("usr_1/text", "{\"max_tokens\": 5000}");
        complete(ask("text").build());
        assertThat(attempts.getFirst().request().maxTokens()).hasValue(100);
    }

    // --- context window

    private static ChatRequest.Builder longConversation(String model) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String text = ("turn " + i + " ").repeat(60).substring(0, 400); // 100 tokens
            messages.add(i % 2 == 0 ? Message.user(text) : Message.assistant(text));
        }
        return ChatRequest.builder(model).messages(messages).maxTokens(50);
    }

    @Test
    void anOverflowingRequestIsA400BeforeAnyUpstreamCall() {
        assertThatThrownBy(() -> complete(longConversation("small").build()))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().param()).contains("messages");
                    assertThat(e.error().message()).contains("middle-out");
                });
        assertThat(attempts).isEmpty();
    }

    @Test
    void middleOutTrimsPerCandidate() {
        failing.add("up-small");
        complete(longConversation("small").transforms(List.of("middle-out")).fallbackModels(List.of("large")).build());

        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).request().messages()).hasSize(3); // 400 - 50 reserved: three of 100
        assertThat(attempts.get(1).request().messages()).hasSize(10);
    }

    @Test
    void aFallbackThatWouldOverflowIsSkipped() {
        failing.add("up-large");
        assertThatThrownBy(() -> complete(longConversation("large").fallbackModels(List.of("small")).build()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().status()).isEqualTo(503));
        assertThat(attempts).extracting(Attempt::upstreamModel).containsExactly("up-large");
    }

    // --- images

    private static ChatRequest withImage(String model, String url) {
        return ChatRequest.builder(model).addMessage(new Message(Role.USER, List.of(ContentBlock.Text.of("what?"),
                ContentBlock.Image.of(new MediaSource.Url(url))))).build();
    }

    @Test
    void anInternalImageUrlForAProviderThatNeedsBytesIsA400AndNothingIsConnectedTo() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            for (String url : List.of("http://127.0.0.1:" + listener.getLocalPort() + "/x.png", "http://10.0.0.1/x.png",
                    "http://169.254.169.254/latest/meta-data/")) {
                assertThatThrownBy(() -> complete(withImage("vision-bytes", url)))
                        .isInstanceOfSatisfying(GatewayException.class, e -> {
                            assertThat(e.error().status()).isEqualTo(400);
                            assertThat(e.error().param()).contains("messages");
                        });
            }
            assertThat(attempts).isEmpty();
            listener.setSoTimeout(200);
            assertThatThrownBy(listener::accept).isInstanceOf(SocketTimeoutException.class);
        }
    }

    @Test
    void aProviderThatTakesUrlsGetsTheUrl() {
        complete(withImage("vision-urls", "http://127.0.0.1/x.png"));
        ContentBlock.Image image = (ContentBlock.Image) attempts.getFirst().request().messages().getFirst().content().get(1);
        assertThat(image.source()).isEqualTo(new MediaSource.Url("http://127.0.0.1/x.png"));
    }
}
