package dev.switchboard.engine.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.RateLimitStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Limits then money as one admission: a later refusal releases what earlier parts hold; each part settles its own. */
class PortStackTest {
    private final List<String> events = new ArrayList<>();
    private static final RateLimitStatus STATUS = new RateLimitStatus(
            Optional.of(new RateLimitStatus.Window(5, 4, Instant.EPOCH)), Optional.empty());

    private Admitted held(String name) {
        return new Admitted() {
            @Override
            public Optional<String> refusal(dev.switchboard.engine.route.Candidate candidate) {
                return name.equals("money") ? Optional.of("too dear") : Optional.empty();
            }

            @Override
            public Optional<RateLimitStatus> rateLimits() {
                return name.equals("limits") ? Optional.of(STATUS) : Optional.empty();
            }

            @Override
            public void release() {
                events.add("release " + name);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    private PortStack stack(boolean moneyRefuses) {
        Admission limits = r -> held("limits");
        Admission money = r -> {
            if (moneyRefuses) {
                throw new GatewayException(GatewayError.insufficientQuota("no credit"), Optional.of(Duration.ZERO));
            }
            return held("money");
        };
        return new PortStack(List.of(
                new PortStack.Pair(limits, (a, o) -> events.add("settle limits with " + a)),
                new PortStack.Pair(money, (a, o) -> {
                    events.add("settle money with " + a);
                    throw new IllegalStateException("ledger down");
                })));
    }

    @Test
    void aRefusalByALaterPartReleasesWhatEarlierPartsHold() {
        assertThatThrownBy(() -> stack(true).admission().admit(null))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().status()).isEqualTo(402));
        assertThat(events).containsExactly("release limits");
    }

    @Test
    void eachPartSettlesWhatItAdmittedEvenWhenAnotherFails() {
        PortStack s = stack(false);
        Admitted a = s.admission().admit(null);
        s.settlement().settle(a, new RequestOutcome(new Caller("usr_1", "key_1", "payg", List.of(), List.of()), "req_1",
                "chat_completions", AdmissionRequest.Purpose.GENERATE, "m", false, RequestOutcome.Ending.FAILED,
                Optional.empty(), dev.switchboard.model.Usage.EMPTY, Duration.ZERO));
        assertThat(events).containsExactly("settle limits with limits", "settle money with money");
        assertThat(a.rateLimits()).contains(STATUS);
        assertThat(a.refusal(null)).contains("too dear");
    }
}
