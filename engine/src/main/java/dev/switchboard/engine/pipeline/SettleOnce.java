package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.Cost;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.route.Answer;
import dev.switchboard.engine.skills.SkillUses;
import dev.switchboard.model.Usage;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settle stage of one admitted request: collects how it ended while it runs and, on {@link #close()},
 * records it once: in the {@link RequestTrace} (read by the edge's log line: usage and the cost at the answering
 * model's prices), in the token and cost metrics, in the
 * skills' use counts (a billed request counts one use of each skill it applied), and through the
 * {@link Settlement} port. Closing without having been told anything settles a failure, so a
 * request that threw still settles, exactly once. Owned by the request's thread.
 */
final class SettleOnce implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SettleOnce.class);

    private final Settlement settlement;
    private final GatewayMetrics metrics;
    private final AdmissionRequest admission;
    private final Admitted admitted;
    private final RequestTrace trace;
    private final SkillUses skillUses;
    private Optional<RequestOutcome.Answered> answered = Optional.empty();
    private RequestOutcome.Ending ending = RequestOutcome.Ending.FAILED;
    private Usage usage = Usage.EMPTY;
    private boolean settled;

    SettleOnce(Settlement settlement, GatewayMetrics metrics, AdmissionRequest admission, Admitted admitted,
               RequestTrace trace, SkillUses skillUses) {
        this.settlement = settlement;
        this.skillUses = skillUses;
        this.metrics = metrics;
        this.admission = admission;
        this.admitted = admitted;
        this.trace = trace;
    }

    /** A candidate answered (a stream: committed); the request is billed for it from now on. */
    void answeredBy(Answer<?> answer) {
        answered = Optional.of(new RequestOutcome.Answered(answer.candidate(), answer.target()));
        trace.modelAnswered(answer.model().id());
        trace.skills(answer.candidate().skills());
    }

    /** How the request ended after it was answered, and what it used. */
    void ended(RequestOutcome.Ending how, Usage used) {
        ending = how;
        usage = used;
    }

    @Override
    public void close() {
        if (settled) {
            return;
        }
        settled = true;
        if (answered.isPresent()) {
            trace.usage(usage);
            String model = answered.get().modelId();
            metrics.tokens(model, usage.inputTokens(), usage.outputTokens());
            if (admission.purpose() == AdmissionRequest.Purpose.GENERATE) {
                long cost = Cost.of(answered.get().candidate().model().pricing(), usage);
                trace.costNanos(cost);
                metrics.cost(model, cost);
                metrics.cacheTokens(model, usage.cacheReadTokens(), usage.cacheWriteTokens());
            }
        }
        RequestOutcome outcome = new RequestOutcome(admission.caller(), admission.requestId(), admission.endpoint(),
                admission.purpose(), trace.modelAsked(), admission.streamed(), ending, answered, usage,
                Duration.ofNanos(System.nanoTime() - trace.startNanos()));
        if (outcome.billable()) {
            skillUses.count(outcome.skills());
        }
        try {
            settlement.settle(admitted, outcome);
        } catch (RuntimeException e) {
            // the answer has usually left already: losing it over a bookkeeping failure would be worse
            LOG.atError().addKeyValue("request_id", admission.requestId()).setCause(e).log("settlement failed");
        }
    }
}
