package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.defaults.SavedDefaultsService;
import dev.switchboard.engine.extend.SkillLookup;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.route.Answer;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.engine.route.FailoverRouter;
import dev.switchboard.engine.skills.SkillStack;
import dev.switchboard.engine.skills.SkillUses;
import dev.switchboard.engine.skills.StackedSkill;
import dev.switchboard.engine.tokens.TokenEstimator;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Usage;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The chat pipeline every client format calls with a canonical request. It knows nothing of HTTP or wire
 * formats. A request goes through these stages, each a class with one job:
 *
 * <ol>
 *   <li><b>authenticate</b>: at the edge, before the body is read ({@code Authenticator}), giving the
 *       {@link Caller}; 401/403 for the key and its endpoint scope;
 *   <li><b>skills</b> ({@link ResolveSkills}): the skills the request names, once; 400 for an unknown one;
 *   <li><b>resolve</b> ({@link ResolveModels}): the requested model and the caller's fallbacks, once; 404,
 *       403 for scope and plan;
 *   <li><b>prepare</b> ({@link PrepareCandidates}): per candidate model, the skills that apply to it
 *       (named, else installed), saved defaults, capability checks, shaping, context window and middle-out;
 *       400;
 *   <li><b>admit</b> ({@link Admission}, a port): limits and money; 429, 402;
 *   <li><b>route</b> ({@link FailoverRouter}): the one failover loop over the candidates, image URLs
 *       fetched for providers that need bytes;
 *   <li><b>post-process</b> ({@link PresentAnswer}, {@link StreamRelay}): the answer named after the model
 *       that answered, JSON extraction, reasoning shown as asked; a stream relayed and ended properly;
 *   <li><b>settle</b> ({@link SettleOnce} calling {@link Settlement}, a port): exactly once for every
 *       admitted request, however it ended; a billed request counts a use of each skill it applied
 *       ({@link SkillUses}).
 * </ol>
 */
public final class ChatPipeline {
    private final Catalog catalog;
    private final ResolveSkills skills;
    private final ResolveModels resolve;
    private final PrepareCandidates prepare;
    private final Admission admission;
    private final FailoverRouter router;
    private final StreamRelay relay;
    private final Settlement settlement;
    private final GatewayMetrics metrics;
    private final SkillUses skillUses;

    /**
     * @param skills    the skills requests may name and users install ({@link SkillLookup#NONE}: none exist)
     * @param skillUses where the uses of applied skills are counted
     */
    public ChatPipeline(Catalog catalog, SavedDefaultsService.Lookup defaults, SkillLookup skills, SkillUses skillUses,
                        Admission admission, FailoverRouter router, Settlement settlement, GatewayMetrics metrics) {
        this.catalog = catalog;
        this.skills = new ResolveSkills(skills);
        this.skillUses = skillUses;
        this.resolve = new ResolveModels(catalog);
        this.prepare = new PrepareCandidates(defaults, this.skills);
        this.admission = admission;
        this.router = router;
        this.relay = new StreamRelay(metrics);
        this.settlement = settlement;
        this.metrics = metrics;
    }

    /** A pipeline without skills. */
    public ChatPipeline(Catalog catalog, SavedDefaultsService.Lookup defaults, Admission admission, FailoverRouter router,
                        Settlement settlement, GatewayMetrics metrics) {
        this(catalog, defaults, SkillLookup.NONE, SkillUses.NONE, admission, router, settlement, metrics);
    }

    /** A pipeline without saved defaults or skills that admits everything and records nothing. */
    public ChatPipeline(Catalog catalog, FailoverRouter router, GatewayMetrics metrics) {
        this(catalog, SavedDefaultsService.Lookup.NONE, Admission.ADMIT_ALL, router, Settlement.RECORD_NOTHING, metrics);
    }

    public Catalog catalog() {
        return catalog;
    }

    /** A complete answer; {@code model} in it is the model that answered. */
    public ChatResponse complete(Caller caller, ChatRequest request, RequestTrace trace) {
        return generate(caller, request, trace, false,
                (candidates, admitted) -> router.complete(candidates, admitted, trace.attempts()), (answer, settle) -> {
                    settle.ended(RequestOutcome.Ending.COMPLETED, answer.value().usage());
                    return PresentAnswer.present(request, answer);
                });
    }

    /**
     * Streams an answer to {@code sink}. Failures before the stream is committed (its first content)
     * throw a {@code GatewayException}: nothing was sent, the edge answers with a plain error. After it,
     * a failure is delivered in-band and the stream ends; a client that left cancels the upstream.
     */
    public void stream(Caller caller, ChatRequest request, RequestTrace trace, StreamSink sink) {
        generate(caller, request, trace, true,
                (candidates, admitted) -> router.stream(candidates, admitted, trace.attempts()), (answer, settle) -> {
                    StreamRelay.Result relayed = relay.relay(request, answer, sink, trace);
                    settle.ended(relayed.ending(), relayed.usage());
                    return relayed;
                });
    }

    /**
     * The stages of a chat that reaches an upstream, whole or streamed: skills, resolve, prepare and admit, then
     * {@code route}; {@code deliver} hands the answer to the caller and reports its end to the settlement, which
     * settles once whatever happens.
     */
    private <T, R> R generate(Caller caller, ChatRequest request, RequestTrace trace, boolean streamed,
                              BiFunction<List<Candidate>, Admitted, Answer<T>> route,
                              BiFunction<Answer<T>, SettleOnce, R> deliver) {
        List<Candidate> candidates = candidates(caller, request, trace);
        AdmissionRequest admitting = admissionRequest(caller, trace, AdmissionRequest.Purpose.GENERATE, streamed, candidates);
        Admitted admitted = admit(admitting, trace);
        try (SettleOnce settle = new SettleOnce(settlement, metrics, admitting, admitted, trace, skillUses)) {
            Answer<T> answer = route.apply(candidates, admitted);
            settle.answeredBy(answer);
            trace.notCarried(notCarried(request, answer));
            return deliver.apply(answer, settle);
        }
    }

    /**
     * The estimated prompt size of {@code request} for {@code count_tokens}: about four characters per
     * token over system, messages and tools (spec 4, 8), as the model would get them: with the skills that
     * apply (named, else installed) in place. The model must exist and be one the caller may use, and the
     * request is admitted and settled like a chat (limits may count it), but nothing reaches an upstream,
     * nothing is billable and no skill use is counted.
     */
    public long countTokens(Caller caller, ChatRequest request, RequestTrace trace) {
        trace.userId(caller.userId());
        List<StackedSkill> named = skills.named(caller, request);
        ModelEntry model = resolve.requested(caller, request, trace);
        SkillStack stack = skills.forModel(caller, named, model);
        trace.skills(stack.ids());
        Candidate counted = new Candidate(model, stack.applyTo(request, model), stack.ids());
        AdmissionRequest admitting = admissionRequest(caller, trace, AdmissionRequest.Purpose.COUNT_TOKENS, false,
                List.of(counted));
        Admitted admitted = admit(admitting, trace);
        try (SettleOnce settle = new SettleOnce(settlement, metrics, admitting, admitted, trace, skillUses)) {
            long tokens = TokenEstimator.ofPrompt(counted.request());
            settle.ended(RequestOutcome.Ending.COUNTED, Usage.EMPTY);
            return tokens;
        }
    }

    /** What of the caller's request did not reach the upstream that answered: what the model refuses, then what the upstream does not take. */
    private List<String> notCarried(ChatRequest request, Answer<?> answer) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>(RefusedParams.named(request, answer.model()));
        names.addAll(router.notCarried(answer));
        return List.copyOf(names);
    }

    /** The admit stage: the port's verdict, and where the caller stands against its rate limits, noted in the trace. */
    private Admitted admit(AdmissionRequest admitting, RequestTrace trace) {
        try {
            Admitted admitted = admission.admit(admitting);
            trace.rateLimits(admitted.rateLimits());
            return admitted;
        } catch (GatewayException refused) {
            trace.rateLimits(refused.rateLimits());
            throw refused;
        }
    }

    /** The skills, resolve and prepare stages: the request as each candidate model gets it. */
    private List<Candidate> candidates(Caller caller, ChatRequest request, RequestTrace trace) {
        trace.userId(caller.userId());
        List<StackedSkill> named = skills.named(caller, request);
        return prepare.candidates(caller, request, named, resolve.models(caller, request, trace), trace);
    }

    private static AdmissionRequest admissionRequest(Caller caller, RequestTrace trace, AdmissionRequest.Purpose purpose,
                                                     boolean streamed, List<Candidate> candidates) {
        return new AdmissionRequest(caller, trace.requestId(), trace.endpoint(), purpose, streamed, candidates);
    }
}
