package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.media.FetchLimits;
import dev.switchboard.engine.media.ImageFetcher;
import dev.switchboard.engine.media.ImageInliner;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one failover loop (docs/contracts.md §1). For each candidate in order (the requested model, then the
 * caller's fallbacks, each with the request already prepared for it) that the {@link CandidateGate} lets
 * through, for each route target of its pool, for each usable key of that provider, one attempt; the
 * first success wins. A refused key (401/403/429) moves to the provider's next key; any other retryable
 * failure moves to the next target; a non-retryable 4xx is the caller's fault and ends the loop with the
 * provider's message. When everything failed, the caller gets 429 if every attempt was rate limited and
 * 503 otherwise, with a summary naming each attempt. Two refusals get exactly one retry on the same target
 * with a compatible rewrite instead: a refused prefill ({@link PrefillRewrite}) and encrypted reasoning a
 * Responses upstream cannot read ({@link ReasoningReplayRewrite}).
 *
 * <p>Image URLs a provider cannot take are fetched as bytes just before an attempt on it, once per
 * request. A stream attempt succeeds only at its first content ({@link FirstContent}): until then the
 * client has seen nothing and failover is invisible. A complete answer is streamed from the upstream too
 * (unless its provider says {@code streaming: false}), so the same deadlines bound every attempt.
 */
public final class FailoverRouter {
    private static final Logger LOG = LoggerFactory.getLogger(FailoverRouter.class);
    /** Secrets a provider might echo in an error message (keys, bearer tokens). */
    private static final Pattern SECRET = dev.switchboard.wire.Redaction.SECRET;

    private final Catalog catalog;
    private final Map<ProviderType, ProviderAdapter> adapters;
    private final KeyRing keys = new KeyRing();
    private final GatewayMetrics metrics;
    private final ImageInliner images;
    private final ExhaustionReport exhausted;

    public FailoverRouter(Catalog catalog, Map<ProviderType, ProviderAdapter> adapters, GatewayMetrics metrics,
                          ImageInliner images) {
        this.catalog = catalog;
        this.adapters = Map.copyOf(adapters);
        this.metrics = metrics;
        this.images = images;
        this.exhausted = new ExhaustionReport(metrics);
    }

    /** A router fetching images with the production guard and limits. */
    public FailoverRouter(Catalog catalog, Map<ProviderType, ProviderAdapter> adapters, GatewayMetrics metrics) {
        this(catalog, adapters, metrics, new ImageInliner(new ImageFetcher(FetchLimits.DEFAULT)));
    }

    /**
     * A complete answer from the first candidate that gives one. Providers that can stream are called
     * streamed and the answer is assembled from the events ({@link WholeAnswer}), so a silent provider is
     * left after its first-byte deadline and a stalled one after its idle deadline; nothing has reached the
     * caller, so any failure before the answer is complete moves on to the next target.
     */
    public Answer<ChatResponse> complete(List<Candidate> candidates, CandidateGate gate, AttemptLog log) {
        return run(candidates, gate, log, (adapter, attempt) -> attempt.provider().streaming()
                ? WholeAnswer.read(adapter.stream(attempt)) : adapter.complete(attempt));
    }

    /**
     * A stream from the first candidate whose first content arrives. A provider that cannot stream is
     * asked for the whole answer, which then reaches the caller as a stream.
     */
    public Answer<OpenStream> stream(List<Candidate> candidates, CandidateGate gate, AttemptLog log) {
        return run(candidates, gate, log, (adapter, attempt) -> FirstContent.open(attempt.provider().streaming()
                ? adapter.stream(attempt) : new ReplayedAnswer(adapter.complete(attempt))));
    }

    @FunctionalInterface
    private interface Call<T> {
        T attempt(ProviderAdapter adapter, Attempt attempt);
    }

    private <T> Answer<T> run(List<Candidate> candidates, CandidateGate gate, AttemptLog log, Call<T> call) {
        UnaryOperator<Attempt> inlineImages = images.forRequest();
        boolean allRateLimited = true;
        Optional<Duration> retryAfter = Optional.empty();
        for (Candidate candidate : candidates) {
            Optional<String> refused = gate.refusal(candidate);
            if (refused.isPresent()) {
                LOG.atInfo().addKeyValue("model", candidate.modelId()).log("candidate skipped: {}", refused.get());
                continue;
            }
            ModelEntry model = candidate.model();
            ChatRequest request = candidate.request();
            boolean prefillRewritten = false;
            for (RouteTarget target : model.route()) {
                ProviderConfig provider = catalog.provider(target.providerId()).orElseThrow();
                ProviderAdapter adapter = adapters.get(provider.type());
                List<Integer> slots = new ArrayList<>(keys.order(provider));
                boolean reasoningDropped = false;
                for (int i = 0; i < slots.size(); i++) {
                    int slot = slots.get(i);
                    long start = System.nanoTime();
                    ChatRequest forTarget = PrefillRewrite.upfront(provider.type()) && request.endsWithPrefill()
                            ? PrefillRewrite.rewrite(request) : request;
                    if (reasoningDropped) {
                        forTarget = ReasoningReplayRewrite.rewrite(forTarget);
                    }
                    try {
                        if (adapter == null) {
                            throw UpstreamFailure.of(UpstreamFailure.Kind.PROTOCOL,
                                    "provider type " + provider.type().wire() + " is not available in this build");
                        }
                        T value = call.attempt(adapter,
                                inlineImages.apply(new Attempt(forTarget, model, provider, target, KeyRing.key(provider, slot))));
                        record(log, model, provider, target, slot, true, "ok", start);
                        return new Answer<>(candidate, target, value);
                    } catch (UpstreamFailure f) {
                        record(log, model, provider, target, slot, false, f.label(), start);
                        LOG.atInfo().addKeyValue("provider", provider.id()).addKeyValue("upstream_model", target.upstreamModel())
                                .addKeyValue("outcome", f.label()).log("upstream attempt failed: {}", scrub(f.getMessage()));
                        boolean rateLimited = f.kind() == UpstreamFailure.Kind.HTTP_STATUS && f.status() == 429;
                        allRateLimited &= rateLimited;
                        if (rateLimited && f.retryAfter().isPresent()) {
                            retryAfter = f.retryAfter();
                        }
                        if (f.keyProblem()) {
                            continue;
                        }
                        if (!reasoningDropped && ReasoningReplayRewrite.isRejection(provider.type(), f)
                                && ReasoningReplayRewrite.replaysReasoning(forTarget)) {
                            // exactly one retry, same target and key, without the traces it cannot read
                            reasoningDropped = true;
                            slots.add(i + 1, slot);
                            continue;
                        }
                        if (!prefillRewritten && request.endsWithPrefill() && PrefillRewrite.isRejection(f)) {
                            // exactly one retry, same target and key, with the compatible rewrite
                            prefillRewritten = true;
                            request = PrefillRewrite.rewrite(request);
                            slots.add(i + 1, slot);
                            continue;
                        }
                        if (f.kind() == UpstreamFailure.Kind.LOCAL_RESOURCE) {
                            exhausted.report();
                        }
                        if (!f.retryable()) {
                            GatewayError e = f.upstreamError();
                            throw new GatewayError(e.status(), e.type(), scrub(e.message()), e.param(), false).toException();
                        }
                        break;
                    }
                }
            }
        }
        String summary = "All providers failed (" + log.summary() + ").";
        if (allRateLimited && !log.attempts().isEmpty()) {
            throw new GatewayException(GatewayError.rateLimited("Rate limited by every provider. " + summary), retryAfter);
        }
        throw GatewayError.upstreamUnavailable(summary).toException();
    }

    private void record(AttemptLog log, ModelEntry model, ProviderConfig provider, RouteTarget target, int slot,
                        boolean ok, String outcome, long startNanos) {
        Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
        log.add(new AttemptRecord(model.id(), provider.id(), target.upstreamModel(), slot, ok, outcome, took.toMillis()));
        metrics.attempt(provider.id(), outcome, took);
    }

    static String scrub(String message) {
        return SECRET.matcher(message).replaceAll("[redacted]");
    }
}
