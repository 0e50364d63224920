package dev.switchboard.engine.route;

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
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FailoverRouterTest {
    /** Scripted outcome per "provider/upstreamModel/key". */
    private final Map<String, UpstreamFailure> failures = new java.util.HashMap<>();
    private final List<String> calls = new ArrayList<>();

    private final ProviderAdapter adapter = new ProviderAdapter() {
        @Override
        public ChatResponse complete(Attempt a) {
            UpstreamFailure f = failures.get(called(a));
            if (f != null) {
                throw f;
            }
            return emptyAnswer(a);
        }

        @Override
        public EventSource stream(Attempt a) {
            String upstreamModel = a.upstreamModel();
            String k = called(a);
            UpstreamFailure f = failures.get(k);
            List<StreamEvent> events = new ArrayList<>();
            if (!upstreamModel.endsWith("-empty")) {
                events.add(new StreamEvent.MessageStart("id", upstreamModel, Usage.EMPTY));
                events.add(new StreamEvent.BlockStart(0, ContentBlock.Text.of("")));
                if (upstreamModel.endsWith("-startonly")) {
                    // Anthropic's message_start and an empty block, then the provider fails
                    events.add(new StreamEvent.StreamError(GatewayError.upstreamUnavailable("Overloaded")));
                }
                events.add(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("hi")));
                events.add(new StreamEvent.BlockStop(0));
                events.add(new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(1, 1)));
                events.add(new StreamEvent.MessageStop());
            }
            return new EventSource() {
                @Override
                public Optional<StreamEvent> next() {
                    if (f != null) {
                        throw f;
                    }
                    return events.isEmpty() ? Optional.empty() : Optional.of(events.removeFirst());
                }

                @Override
                public void close() {
                    calls.add("closed " + k);
                }
            };
        }
    };

    /** A provider configured not to stream: whole answers come from the adapter's {@code complete}. */
    private static ProviderConfig provider(String id, String... keys) {
        return new ProviderConfig(id, ProviderType.OPENAI, URI.create("http://127.0.0.1:1/v1"), List.of(keys),
                Timeouts.DEFAULT, Map.of(), false);
    }

    /** A provider that streams every call, whole answers included (the default). */
    private static ProviderConfig streamingProvider(String id) {
        return new ProviderConfig(id, ProviderType.OPENAI, URI.create("http://127.0.0.1:1/v1"), List.of(),
                Timeouts.DEFAULT, Map.of());
    }

    private FailoverRouter streamingRouter(ModelEntry m) {
        Catalog c = new Catalog(List.of(streamingProvider("a"), streamingProvider("b")), List.of(m));
        return new FailoverRouter(c, Map.of(ProviderType.OPENAI, adapter), new GatewayMetrics(new SimpleMeterRegistry()));
    }

    private static ModelEntry model(String id, RouteTarget... route) {
        return new ModelEntry(id, List.of(), Optional.empty(), "test", 1000, 100, Capabilities.TEXT_ONLY,
                ReasoningProfile.NONE, Pricing.FREE, List.of(), List.of(route));
    }

    private final ModelEntry primary = model("m", new RouteTarget("a", "up-a"), new RouteTarget("b", "up-b"));
    private final ModelEntry fallback = model("f", new RouteTarget("b", "up-f"));
    private final Catalog catalog = new Catalog(List.of(provider("a", "ka1", "ka2"), provider("b", "kb")),
            List.of(primary, fallback));
    private final FailoverRouter router = new FailoverRouter(catalog, Map.of(ProviderType.OPENAI, adapter),
            new GatewayMetrics(new SimpleMeterRegistry()));
    private final ChatRequest request = ChatRequest.builder("m").addMessage(Message.user("hi")).build();

    private static List<Candidate> candidates(ChatRequest request, ModelEntry... models) {
        return java.util.Arrays.stream(models).map(m -> new Candidate(m, request)).toList();
    }

    private static UpstreamFailure status(int s) {
        return UpstreamFailure.http(s, new GatewayError(s, "x", "upstream said " + s, Optional.empty(), false), Optional.empty());
    }

    /** Records the call of {@code a} in {@link #calls} and returns its key, "provider/upstreamModel/key". */
    private String called(Attempt a) {
        String k = a.provider().id() + "/" + a.upstreamModel() + "/" + a.apiKey();
        calls.add(k);
        return k;
    }

    /** A provider that answers whole only (as one with {@code streaming: false}); asking it to stream fails the test. */
    private static ProviderAdapter wholeAnswersOnly(java.util.function.Function<Attempt, ChatResponse> complete) {
        return new ProviderAdapter() {
            @Override
            public ChatResponse complete(Attempt a) {
                return complete.apply(a);
            }

            @Override
            public EventSource stream(Attempt a) {
                throw new AssertionError("this provider answers whole; it is never asked to stream");
            }
        };
    }

    /** An answer of no content that ends the turn. */
    private static ChatResponse emptyAnswer(Attempt a) {
        return new ChatResponse("id", a.upstreamModel(), List.of(), StopReason.END_TURN, Optional.empty(), Usage.of(1, 1));
    }

    @Test
    void firstSuccessWinsAndIsTheAnsweringModel() {
        Answer<ChatResponse> a = router.complete(candidates(request, primary), CandidateGate.OPEN, new AttemptLog());
        assertThat(a.model().id()).isEqualTo("m");
        assertThat(a.target().providerId()).isEqualTo("a");
        assertThat(calls).hasSize(1);
    }

    @Test
    void retryableFailureMovesToNextTargetThenFallbackModel() {
        failures.put("a/up-a/ka1", UpstreamFailure.of(UpstreamFailure.Kind.RESET, "reset"));
        failures.put("a/up-a/ka2", UpstreamFailure.of(UpstreamFailure.Kind.RESET, "reset"));
        failures.put("b/up-b/kb", status(500));
        AttemptLog log = new AttemptLog();
        Answer<ChatResponse> a = router.complete(candidates(request, primary, fallback), CandidateGate.OPEN, log);
        assertThat(a.model().id()).isEqualTo("f");
        // a reset is not a key problem: the next target is tried, not the next key
        assertThat(calls).hasSize(3);
        assertThat(calls.get(1)).startsWith("b/up-b");
        assertThat(log.attempts()).extracting(AttemptRecord::outcome).containsExactly(
                "connection reset", "500", "ok");
    }

    @Test
    void refusedKeyTriesTheProvidersNextKeyFirst() {
        failures.put("a/up-a/ka1", status(429));
        failures.put("a/up-a/ka2", status(429));
        router.complete(candidates(request, primary), CandidateGate.OPEN, new AttemptLog());
        calls.clear();
        Answer<ChatResponse> a = router.complete(candidates(request, primary), CandidateGate.OPEN, new AttemptLog());
        assertThat(a.target().providerId()).isEqualTo("b");
        assertThat(calls).hasSize(3);
        assertThat(calls.subList(0, 2)).containsExactlyInAnyOrder("a/up-a/ka1", "a/up-a/ka2");
    }

    @Test
    void nonRetryableClientErrorEndsTheLoopWithTheProvidersMessage() {
        failures.put("a/up-a/ka1", status(400));
        failures.put("a/up-a/ka2", status(400));
        assertThatThrownBy(() -> router.complete(candidates(request, primary, fallback), CandidateGate.OPEN, new AttemptLog()))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().message()).contains("upstream said 400");
                });
        assertThat(calls).hasSize(1);
    }

    @Test
    void everythingRateLimitedIs429AndOtherwise503WithASummary() {
        for (String k : List.of("a/up-a/ka1", "a/up-a/ka2", "b/up-b/kb")) {
            failures.put(k, UpstreamFailure.http(429, GatewayError.rateLimited("slow down"), Optional.of(Duration.ofSeconds(7))));
        }
        assertThatThrownBy(() -> router.complete(candidates(request, primary), CandidateGate.OPEN, new AttemptLog()))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(429);
                    assertThat(e.retryAfter()).contains(Duration.ofSeconds(7));
                });
        failures.put("b/up-b/kb", status(503));
        assertThatThrownBy(() -> router.complete(candidates(request, primary), CandidateGate.OPEN, new AttemptLog()))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(503);
                    assertThat(e.error().type()).isEqualTo("api_error");
                    assertThat(e.error().message()).contains("m via a: 429").contains("m via b: 503");
                });
    }

    /** A stream of a model routed to provider a's {@code upstreamOfA}, then to b's {@code ok}. */
    private Answer<OpenStream> streamOfAThenB(String upstreamOfA, AttemptLog log) {
        ModelEntry m = model("s", new RouteTarget("a", upstreamOfA), new RouteTarget("b", "ok"));
        return streamingRouter(m).stream(candidates(request, m), CandidateGate.OPEN, log);
    }

    @Test
    void streamFailsOverUntilAFirstEventArrives() {
        AttemptLog log = new AttemptLog();
        Answer<OpenStream> a = streamOfAThenB("x-empty", log);
        assertThat(a.target().providerId()).isEqualTo("b");
        assertThat(a.value().held().getFirst()).isInstanceOf(StreamEvent.MessageStart.class);
        assertThat(calls).contains("closed a/x-empty/");
        assertThat(log.attempts()).extracting(AttemptRecord::outcome).containsExactly("empty stream", "ok");
    }

    @Test
    void aStreamIsCommittedAtItsFirstContentWithTheContentFreeEventsBeforeItHeld() {
        ModelEntry m = model("s", new RouteTarget("a", "up-a"));
        Answer<OpenStream> a = streamingRouter(m).stream(candidates(request, m), CandidateGate.OPEN, new AttemptLog());
        assertThat(a.value().held()).containsExactly(new StreamEvent.MessageStart("id", "up-a", Usage.EMPTY),
                new StreamEvent.BlockStart(0, ContentBlock.Text.of("")),
                new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("hi")));
        assertThat(a.value().source().next()).contains(new StreamEvent.BlockStop(0));
    }

    @Test
    void aStreamThatFailsAfterMessageStartButBeforeContentFailsOverToTheNextTarget() {
        AttemptLog log = new AttemptLog();
        Answer<OpenStream> a = streamOfAThenB("x-startonly", log);
        assertThat(a.target().providerId()).isEqualTo("b");
        assertThat(calls).containsExactly("a/x-startonly/", "closed a/x-startonly/", "b/ok/");
        assertThat(log.attempts()).extracting(AttemptRecord::outcome).containsExactly("503", "ok");
    }

    @Test
    void aWholeAnswerFromAStreamingProviderIsAssembledFromItsEvents() {
        ModelEntry m = model("s", new RouteTarget("a", "up-a"));
        Answer<ChatResponse> a = streamingRouter(m).complete(candidates(request, m), CandidateGate.OPEN, new AttemptLog());
        assertThat(a.value().text()).isEqualTo("hi");
        assertThat(a.value().usage()).isEqualTo(Usage.of(1, 1));
        assertThat(calls).containsExactly("a/up-a/", "closed a/up-a/");
    }

    @Test
    void aWholeAnswerWhoseStreamBreaksAfterContentStillFailsOverForTheCallerHasSeenNothing() {
        ModelEntry m = model("s", new RouteTarget("a", "x-startonly"), new RouteTarget("b", "up-b"));
        AttemptLog log = new AttemptLog();
        Answer<ChatResponse> a = streamingRouter(m).complete(candidates(request, m), CandidateGate.OPEN, log);
        assertThat(a.target().providerId()).isEqualTo("b");
        assertThat(log.attempts()).extracting(AttemptRecord::outcome).containsExactly("503", "ok");
    }

    @Test
    void aStreamFromAProviderThatCannotStreamIsTheWholeAnswerToldAsEvents() {
        ProviderAdapter wholeOnly = wholeAnswersOnly(a -> {
            return new ChatResponse("id", a.upstreamModel(), List.of(ContentBlock.Text.of("whole")), StopReason.END_TURN,
                    Optional.empty(), Usage.of(3, 2));
        });
        FailoverRouter r = new FailoverRouter(catalog, Map.of(ProviderType.OPENAI, wholeOnly),
                new GatewayMetrics(new SimpleMeterRegistry()));
        Answer<OpenStream> a = r.stream(candidates(request, primary), CandidateGate.OPEN, new AttemptLog());
        dev.switchboard.model.StreamAccumulator seen = new dev.switchboard.model.StreamAccumulator();
        a.value().held().forEach(seen::accept);
        for (Optional<StreamEvent> e = a.value().source().next(); e.isPresent(); e = a.value().source().next()) {
            seen.accept(e.get());
        }
        assertThat(seen.complete()).isTrue();
        assertThat(seen.response().text()).isEqualTo("whole");
        assertThat(seen.usage()).isEqualTo(Usage.of(3, 2));
    }

    @Test
    void theGateIsAskedBeforeEachCandidateAndARefusedOneIsSkipped() {
        failures.put("a/up-a/ka1", status(500));
        failures.put("a/up-a/ka2", status(500));
        failures.put("b/up-b/kb", status(500));
        List<String> asked = new ArrayList<>();
        CandidateGate refuseFallback = candidate -> {
            asked.add(candidate.modelId());
            return candidate.modelId().equals("f") ? Optional.of("costs more than the balance holds") : Optional.empty();
        };
        assertThatThrownBy(() -> router.complete(candidates(request, primary, fallback), refuseFallback, new AttemptLog()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().status()).isEqualTo(503));
        assertThat(asked).containsExactly("m", "f");
        assertThat(calls).noneMatch(k -> k.startsWith("b/up-f"));
    }

    @Test
    void prefillRejectionIsRetriedOnceWithTheRewriteOnTheSameTarget() {
        ChatRequest prefill = ChatRequest.builder("m").addMessage(Message.user("Name a colour"))
                .addMessage(Message.assistant("The colour is")).build();
        List<ChatRequest> seen = new ArrayList<>();
        ProviderAdapter refusesPrefill = wholeAnswersOnly(a -> {
            seen.add(a.request());
            if (a.request().endsWithPrefill()) {
                throw UpstreamFailure.http(400, GatewayError.invalidRequest(
                        "This model does not support assistant message prefill."), Optional.empty());
            }
            return emptyAnswer(a);
        });
        FailoverRouter r = new FailoverRouter(catalog, Map.of(ProviderType.OPENAI, refusesPrefill),
                new GatewayMetrics(new SimpleMeterRegistry()));
        Answer<ChatResponse> a = r.complete(candidates(prefill, primary), CandidateGate.OPEN, new AttemptLog());
        assertThat(a.target().providerId()).isEqualTo("a");
        assertThat(seen).hasSize(2);
        assertThat(seen.get(1).messages().getLast().text()).contains("The colour is").contains("Continue it");
    }

    @Test
    void aSecondPrefillRefusalIsNotRetriedAgain() {
        ProviderAdapter alwaysRefuses = wholeAnswersOnly(a -> {
            calls.add(a.provider().id());
            throw UpstreamFailure.http(400, GatewayError.invalidRequest("assistant prefill is not supported"), Optional.empty());
        });
        ChatRequest prefill = ChatRequest.builder("m").addMessage(Message.user("Hi"))
                .addMessage(Message.assistant("Hello")).build();
        FailoverRouter r = new FailoverRouter(catalog, Map.of(ProviderType.OPENAI, alwaysRefuses),
                new GatewayMetrics(new SimpleMeterRegistry()));
        assertThatThrownBy(() -> r.complete(candidates(prefill, primary), CandidateGate.OPEN, new AttemptLog()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().status()).isEqualTo(400));
        assertThat(calls).hasSize(2);
    }

    private static final String ENCRYPTED_REFUSAL = "The encrypted content for item rs_1 could not be verified.";

    /** A Responses provider {@code r} with one key, the only target of model {@code mr}. */
    private static FailoverRouter responsesRouter(ProviderAdapter adapter, ModelEntry model) {
        // streaming: false, so whole answers are asked for whole and the adapters below need no stream
        ProviderConfig responses = new ProviderConfig("r", ProviderType.OPENAI_RESPONSES, URI.create("http://127.0.0.1:1/v1"),
                List.of("kr"), Timeouts.DEFAULT, Map.of(), false);
        return new FailoverRouter(new Catalog(List.of(responses), List.of(model)),
                Map.of(ProviderType.OPENAI_RESPONSES, adapter), new GatewayMetrics(new SimpleMeterRegistry()));
    }

    private static ChatRequest withReplayedReasoning() {
        return ChatRequest.builder("mr").addMessage(Message.user("Hi"))
                .addMessage(new Message(dev.switchboard.model.Role.ASSISTANT, List.of(
                        new dev.switchboard.model.ContentBlock.Thinking("trace",
                                Optional.of(new dev.switchboard.model.Signature("responses", "enc-other-org"))),
                        dev.switchboard.model.ContentBlock.Text.of("Hello"))))
                .addMessage(Message.user("Again")).build();
    }

    private static boolean hasResponsesTrace(ChatRequest r) {
        return r.messages().stream().flatMap(m -> m.content().stream())
                .anyMatch(b -> b instanceof dev.switchboard.model.ContentBlock.Thinking);
    }

    @Test
    void encryptedReasoningAResponsesUpstreamCannotReadIsDroppedForExactlyOneRetryOnTheSameTarget() {
        List<ChatRequest> seen = new ArrayList<>();
        ProviderAdapter refusesForeignReasoning = wholeAnswersOnly(a -> {
            seen.add(a.request());
            if (hasResponsesTrace(a.request())) {
                throw UpstreamFailure.http(400, GatewayError.invalidRequest(ENCRYPTED_REFUSAL), Optional.empty());
            }
            return emptyAnswer(a);
        });
        ModelEntry mr = model("mr", new RouteTarget("r", "up-r"));
        Answer<ChatResponse> a = responsesRouter(refusesForeignReasoning, mr).complete(candidates(withReplayedReasoning(), mr),
                CandidateGate.OPEN, new AttemptLog());

        assertThat(a.target().providerId()).isEqualTo("r");
        assertThat(seen).hasSize(2);
        assertThat(hasResponsesTrace(seen.get(0))).isTrue();
        assertThat(seen.get(1).messages()).extracting(Message::text).containsExactly("Hi", "Hello", "Again");
    }

    @Test
    void aSecondRefusalOfEncryptedReasoningReachesTheCaller() {
        ProviderAdapter alwaysRefuses = wholeAnswersOnly(a -> {
            calls.add(a.provider().id());
            throw UpstreamFailure.http(400, GatewayError.invalidRequest(ENCRYPTED_REFUSAL), Optional.empty());
        });
        ModelEntry mr = model("mr", new RouteTarget("r", "up-r"));
        assertThatThrownBy(() -> responsesRouter(alwaysRefuses, mr).complete(candidates(withReplayedReasoning(), mr),
                CandidateGate.OPEN, new AttemptLog()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().status()).isEqualTo(400));
        assertThat(calls).hasSize(2);
    }

    @Test
    void aResponsesUpstreamGetsAPrefillAsTheContinuationRewriteAtOnce() {
        List<ChatRequest> seen = new ArrayList<>();
        ProviderAdapter recording = wholeAnswersOnly(a -> {
            seen.add(a.request());
            return emptyAnswer(a);
        });
        ModelEntry mr = model("mr", new RouteTarget("r", "up-r"));
        ChatRequest prefill = ChatRequest.builder("mr").addMessage(Message.user("Name a colour"))
                .addMessage(Message.assistant("The colour is")).build();
        responsesRouter(recording, mr).complete(candidates(prefill, mr), CandidateGate.OPEN, new AttemptLog());

        assertThat(seen).singleElement().satisfies(r -> {
            assertThat(r.endsWithPrefill()).isFalse();
            assertThat(r.messages().getLast().text()).contains("The colour is").contains("Continue it");
        });
    }

    @Test
    void secretsAreScrubbedFromProviderMessagesHandedToTheCaller() {
        ProviderAdapter quotesTheKey = wholeAnswersOnly(a -> {
            throw UpstreamFailure.http(400, GatewayError.invalidRequest(
                    "Incorrect API key provided: sk-abc123456789. Bearer xyz"), Optional.empty());
        });
        FailoverRouter r = new FailoverRouter(catalog, Map.of(ProviderType.OPENAI, quotesTheKey),
                new GatewayMetrics(new SimpleMeterRegistry()));
        assertThatThrownBy(() -> r.complete(candidates(request, primary), CandidateGate.OPEN, new AttemptLog()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().message())
                        .contains("Incorrect API key provided").doesNotContain("sk-abc123456789").doesNotContain("xyz"));
    }
}
