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
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.engine.route.FailoverRouter;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The pipeline's ports are called once per request: admission before any upstream call, settlement
 * exactly once for every admitted request, for the model that answered, however the request ended.
 */
class ChatPipelinePortsTest {
    private static final Caller CALLER = new Caller("usr_1", "key_1", "payg", List.of(), List.of());

    /** Upstream model names script the provider: {@code -down} resets, {@code -cut} breaks after its first text. */
    private final List<String> upstreamCalls = new ArrayList<>();
    private final ProviderAdapter adapter = new ProviderAdapter() {
        @Override
        public ChatResponse complete(Attempt a) {
            upstreamCalls.add(a.upstreamModel());
            if (a.upstreamModel().endsWith("-down")) {
                throw UpstreamFailure.of(UpstreamFailure.Kind.RESET, "reset");
            }
            return new ChatResponse("id", a.upstreamModel(), List.of(ContentBlock.Text.of("answer")), StopReason.END_TURN,
                    Optional.empty(), Usage.of(11, 7));
        }

        @Override
        public EventSource stream(Attempt a) {
            upstreamCalls.add(a.upstreamModel());
            if (a.upstreamModel().endsWith("-down")) {
                throw UpstreamFailure.of(UpstreamFailure.Kind.RESET, "reset");
            }
            List<StreamEvent> events = new ArrayList<>(List.of(new StreamEvent.MessageStart("id", a.upstreamModel(), Usage.of(11, 0)),
                    new StreamEvent.BlockStart(0, ContentBlock.Text.of("")),
                    new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("answer"))));
            boolean cut = a.upstreamModel().endsWith("-cut");
            if (!cut) {
                events.addAll(List.of(new StreamEvent.BlockStop(0),
                        new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(11, 7)),
                        new StreamEvent.MessageStop()));
            }
            return new EventSource() {
                @Override
                public Optional<StreamEvent> next() {
                    if (events.isEmpty() && cut) {
                        throw UpstreamFailure.of(UpstreamFailure.Kind.RESET, "reset");
                    }
                    return events.isEmpty() ? Optional.empty() : Optional.of(events.removeFirst());
                }

                @Override
                public void close() {
                }
            };
        }
    };

    private static ModelEntry model(String id, String... upstreamModels) {
        return new ModelEntry(id, List.of(), Optional.empty(), "t", 100_000, 1000, Capabilities.TEXT_ONLY,
                ReasoningProfile.NONE, Pricing.FREE, List.of(),
                java.util.Arrays.stream(upstreamModels).map(u -> new RouteTarget("p", u)).toList());
    }

    private final Catalog catalog = new Catalog(
            List.of(new ProviderConfig("p", ProviderType.OPENAI, URI.create("http://127.0.0.1:1"), List.of("k"),
                    Timeouts.DEFAULT, Map.of())),
            List.of(model("pool", "first-down", "second"), model("down", "only-down"), model("backup", "backup"),
                    model("cut", "answer-cut")));

    private final List<AdmissionRequest> admissions = new ArrayList<>();
    private final List<Admitted> granted = new ArrayList<>();
    private final List<Admitted> settledWith = new ArrayList<>();
    private final List<RequestOutcome> settled = new ArrayList<>();
    private Optional<String> refusal = Optional.empty();
    private final List<String> gateAsked = new ArrayList<>();

    private final Admission admission = request -> {
        admissions.add(request);
        refusal.ifPresent(r -> {
            throw GatewayError.rateLimited(r).toException();
        });
        Admitted a = candidate -> {
            gateAsked.add(candidate.modelId());
            return Optional.empty();
        };
        granted.add(a);
        return a;
    };
    private final Settlement settlement = (admitted, outcome) -> {
        settledWith.add(admitted);
        settled.add(outcome);
    };

    private ChatPipeline pipeline(Settlement s) {
        GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
        return new ChatPipeline(catalog, SavedDefaultsService.Lookup.NONE, admission,
                new FailoverRouter(catalog, Map.of(ProviderType.OPENAI, adapter), metrics), s, metrics);
    }

    private final ChatPipeline chat = pipeline(settlement);

    private static ChatRequest ask(String model, String... fallbacks) {
        return ChatRequest.builder(model).addMessage(Message.user("hi")).fallbackModels(List.of(fallbacks)).build();
    }

    private static RequestTrace trace() {
        return new RequestTrace("req_1", "chat_completions");
    }

    /** A client that takes every event. */
    private static final StreamSink READS_ALL = event -> { };

    private void assertOnceEach() {
        assertThat(admissions).hasSize(1);
        assertThat(settled).hasSize(1);
        assertThat(settledWith).containsExactlyElementsOf(granted);
        assertThat(settled.getFirst().requestId()).isEqualTo(admissions.getFirst().requestId());
    }

    @Test
    void aFailoverInsideThePoolIsAdmittedOnceAndSettledOnceForTheModel() {
        chat.complete(CALLER, ask("pool"), trace());

        assertOnceEach();
        assertThat(upstreamCalls).containsExactly("first-down", "second");
        RequestOutcome o = settled.getFirst();
        assertThat(o.ending()).isEqualTo(RequestOutcome.Ending.COMPLETED);
        assertThat(o.answered().orElseThrow().modelId()).isEqualTo("pool");
        assertThat(o.answered().orElseThrow().target().upstreamModel()).isEqualTo("second");
        assertThat(o.usage()).isEqualTo(Usage.of(11, 7));
        assertThat(o.billable()).isTrue();
        assertThat(o.streamed()).isFalse();
        assertThat(o.caller()).isEqualTo(CALLER);
    }

    @Test
    void aCallerFallbackIsAdmittedWithEveryCandidateAndSettledForTheFallbackThatAnswered() {
        chat.complete(CALLER, ask("down", "backup"), trace());

        assertOnceEach();
        assertThat(admissions.getFirst().candidates()).extracting(Candidate::modelId).containsExactly("down", "backup");
        assertThat(admissions.getFirst().purpose()).isEqualTo(AdmissionRequest.Purpose.GENERATE);
        assertThat(gateAsked).containsExactly("down", "backup");
        assertThat(settled.getFirst().answered().orElseThrow().modelId()).isEqualTo("backup");
        assertThat(settled.getFirst().requestedModel()).isEqualTo("down");
    }

    @Test
    void aStreamedFallbackIsSettledOnceForTheFallbackWithTheFinalUsage() {
        chat.stream(CALLER, ask("down", "backup"), trace(), READS_ALL);

        assertOnceEach();
        RequestOutcome o = settled.getFirst();
        assertThat(o.streamed()).isTrue();
        assertThat(o.ending()).isEqualTo(RequestOutcome.Ending.COMPLETED);
        assertThat(o.answered().orElseThrow().modelId()).isEqualTo("backup");
        assertThat(o.usage()).isEqualTo(Usage.of(11, 7));
    }

    @Test
    void aStreamCutByTheUpstreamIsSettledOnceAsCutWithEstimatedUsage() {
        chat.stream(CALLER, ask("cut"), trace(), READS_ALL);

        assertOnceEach();
        RequestOutcome o = settled.getFirst();
        assertThat(o.ending()).isEqualTo(RequestOutcome.Ending.CUT);
        assertThat(o.billable()).isTrue();
        assertThat(o.usage().provenance()).isEqualTo(Usage.Provenance.ESTIMATED);
        assertThat(o.usage().outputTokens()).isPositive();
    }

    @Test
    void aClientThatLeavesIsSettledOnceAsGone() {
        chat.stream(CALLER, ask("pool"), trace(), event -> {
            throw new ClientGoneException(new java.io.IOException("gone"));
        });

        assertOnceEach();
        assertThat(settled.getFirst().ending()).isEqualTo(RequestOutcome.Ending.CLIENT_GONE);
        assertThat(settled.getFirst().usage().provenance()).isEqualTo(Usage.Provenance.ESTIMATED);
    }

    @Test
    void whenNothingAnswersTheRequestIsStillSettledOnceAsAFailureWithNothingBillable() {
        assertThatThrownBy(() -> chat.complete(CALLER, ask("down"), trace())).isInstanceOf(GatewayException.class);
        assertThatThrownBy(() -> chat.stream(CALLER, ask("down"), trace(), READS_ALL)).isInstanceOf(GatewayException.class);

        assertThat(admissions).hasSize(2);
        assertThat(settled).hasSize(2).allSatisfy(o -> {
            assertThat(o.ending()).isEqualTo(RequestOutcome.Ending.FAILED);
            assertThat(o.answered()).isEmpty();
            assertThat(o.billable()).isFalse();
        });
    }

    @Test
    void countTokensIsAdmittedAndSettledOnceWithNothingBillableAndNoUpstreamCall() {
        long tokens = chat.countTokens(CALLER, ask("pool"), new RequestTrace("req_1", "count_tokens"));

        assertThat(tokens).isPositive();
        assertOnceEach();
        assertThat(admissions.getFirst().purpose()).isEqualTo(AdmissionRequest.Purpose.COUNT_TOKENS);
        assertThat(settled.getFirst().ending()).isEqualTo(RequestOutcome.Ending.COUNTED);
        assertThat(settled.getFirst().billable()).isFalse();
        assertThat(upstreamCalls).isEmpty();
    }

    @Test
    void aRefusedRequestReachesNoUpstreamAndSettlesNothing() {
        refusal = Optional.of("The key's rpm limit is reached.");
        assertThatThrownBy(() -> chat.complete(CALLER, ask("pool"), trace()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().status()).isEqualTo(429));

        assertThat(admissions).hasSize(1);
        assertThat(settled).isEmpty();
        assertThat(upstreamCalls).isEmpty();
    }

    @Test
    void aRequestRefusedBeforeAdmissionIsNeitherAdmittedNorSettled() {
        assertThatThrownBy(() -> chat.complete(CALLER, ask("no-such-model"), trace())).isInstanceOf(GatewayException.class);

        assertThat(admissions).isEmpty();
        assertThat(settled).isEmpty();
    }

    @Test
    void aSettlementThatThrowsDoesNotLoseTheAnswer() {
        ChatPipeline failingBooks = pipeline((admitted, outcome) -> {
            settled.add(outcome);
            throw new IllegalStateException("database down");
        });

        ChatResponse answer = failingBooks.complete(CALLER, ask("pool"), trace());

        assertThat(answer.text()).isEqualTo("answer");
        assertThat(settled).hasSize(1);
    }
}
