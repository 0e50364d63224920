package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.defaults.ModelDefaults;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.route.Answer;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.engine.route.FailoverRouter;
import dev.switchboard.engine.route.OpenStream;
import dev.switchboard.engine.tokens.TokenEstimator;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.Usage;
import java.util.List;

/**
 * The chat pipeline every client format calls with a canonical request. It knows nothing of HTTP or wire
 * formats. A request goes through these stages, each a class with one job:
 *
 * <ol>
 *   <li><b>authenticate</b>: at the edge, before the body is read ({@code Authenticator}), giving the
 *       {@link Caller}; 401/403 for the key and its endpoint scope;
 *   <li><b>resolve</b> ({@link ResolveModels}): the requested model and the caller's fallbacks, once; 404,
 *       403 for scope and plan;
 *   <li><b>prepare</b> ({@link PrepareCandidates}): per candidate model, saved defaults, capability
 *       checks, shaping, context window and middle-out; 400;
 *   <li><b>admit</b> ({@link Admission}, a port): limits and money; 429, 402;
 *   <li><b>route</b> ({@link FailoverRouter}): the one failover loop over the candidates, image URLs
 *       fetched for providers that need bytes;
 *   <li><b>post-process</b> ({@link PresentAnswer}, {@link StreamRelay}): the answer named after the model
 *       that answered, JSON extraction, reasoning shown as asked; a stream relayed and ended properly;
 *   <li><b>settle</b> ({@link SettleOnce} calling {@link Settlement}, a port): exactly once for every
 *       admitted request, however it ended.
 * </ol>
 */
public final class ChatPipeline {
    private final Catalog catalog;
    private final ResolveModels resolve;
    private final PrepareCandidates prepare;
    private final Admission admission;
    private final FailoverRouter router;
    private final StreamRelay relay;
    private final Settlement settlement;
    private final GatewayMetrics metrics;

    public ChatPipeline(Catalog catalog, ModelDefaults.Lookup defaults, Admission admission, FailoverRouter router,
                        Settlement settlement, GatewayMetrics metrics) {
        this.catalog = catalog;
        this.resolve = new ResolveModels(catalog);
        this.prepare = new PrepareCandidates(defaults);
        this.admission = admission;
        this.router = router;
        this.relay = new StreamRelay(metrics);
        this.settlement = settlement;
        this.metrics = metrics;
    }

    /** A pipeline without saved defaults that admits everything and records nothing. */
    public ChatPipeline(Catalog catalog, FailoverRouter router, GatewayMetrics metrics) {
        this(catalog, ModelDefaults.Lookup.NONE, Admission.ADMIT_ALL, router, Settlement.RECORD_NOTHING, metrics);
    }

    public Catalog catalog() {
        return catalog;
    }

    /** A complete answer; {@code model} in it is the model that answered. */
    public ChatResponse complete(Caller caller, ChatRequest request, RequestTrace trace) {
        List<Candidate> candidates = prepare.candidates(caller, request, resolve.models(caller, request, trace), trace);
        AdmissionRequest admitting = admissionRequest(caller, trace, AdmissionRequest.Purpose.GENERATE, false, candidates);
        Admitted admitted = admission.admit(admitting);
        try (SettleOnce settle = new SettleOnce(settlement, metrics, admitting, admitted, trace)) {
            Answer<ChatResponse> answer = router.complete(candidates, admitted, trace.attempts());
            settle.answeredBy(answer);
            settle.ended(RequestOutcome.Ending.COMPLETED, answer.value().usage());
            return PresentAnswer.present(request, answer);
        }
    }

    /**
     * Streams an answer to {@code sink}. Failures before the stream is committed (its first content)
     * throw a {@code GatewayException}: nothing was sent, the edge answers with a plain error. After it,
     * a failure is delivered in-band and the stream ends; a client that left cancels the upstream.
     */
    public void stream(Caller caller, ChatRequest request, RequestTrace trace, StreamSink sink) {
        List<Candidate> candidates = prepare.candidates(caller, request, resolve.models(caller, request, trace), trace);
        AdmissionRequest admitting = admissionRequest(caller, trace, AdmissionRequest.Purpose.GENERATE, true, candidates);
        Admitted admitted = admission.admit(admitting);
        try (SettleOnce settle = new SettleOnce(settlement, metrics, admitting, admitted, trace)) {
            Answer<OpenStream> answer = router.stream(candidates, admitted, trace.attempts());
            settle.answeredBy(answer);
            StreamRelay.Result relayed = relay.relay(request, answer, sink, trace);
            settle.ended(relayed.ending(), relayed.usage());
        }
    }

    /**
     * The estimated prompt size of {@code request} for {@code count_tokens}: about four characters per
     * token over system, messages and tools (spec 4, 8). The model must exist and be one the caller may
     * use, and the request is admitted and settled like a chat (limits may count it), but nothing reaches
     * an upstream and nothing is billable.
     */
    public long countTokens(Caller caller, ChatRequest request, RequestTrace trace) {
        Candidate counted = new Candidate(resolve.requested(caller, request, trace), request);
        AdmissionRequest admitting = admissionRequest(caller, trace, AdmissionRequest.Purpose.COUNT_TOKENS, false,
                List.of(counted));
        Admitted admitted = admission.admit(admitting);
        try (SettleOnce settle = new SettleOnce(settlement, metrics, admitting, admitted, trace)) {
            long tokens = TokenEstimator.ofPrompt(request);
            settle.ended(RequestOutcome.Ending.COUNTED, Usage.EMPTY);
            return tokens;
        }
    }

    private static AdmissionRequest admissionRequest(Caller caller, RequestTrace trace, AdmissionRequest.Purpose purpose,
                                                     boolean streamed, List<Candidate> candidates) {
        return new AdmissionRequest(caller, trace.requestId(), trace.endpoint(), purpose, streamed, candidates);
    }
}
