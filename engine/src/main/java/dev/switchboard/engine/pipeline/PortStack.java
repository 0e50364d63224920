package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.route.Candidate;
import dev.switchboard.model.RateLimitStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several admission and settlement pairs (limits, then money) acting as the pipeline's one {@link Admission} and
 * one {@link Settlement}. Admission asks each in order; when one refuses, what the earlier ones hold is released
 * ({@link Admitted#release()}), so a refused request consumes nothing anywhere (a request money refuses uses no
 * rate). Settlement settles each part with its own settlement, every one even when another throws. Before each
 * candidate, every part's gate is asked; the first refusal skips it.
 */
public final class PortStack {
    private static final Logger LOG = LoggerFactory.getLogger(PortStack.class);

    /** One admission and the settlement that closes what it holds. */
    public record Pair(Admission admission, Settlement settlement) {
        public Pair {
            Objects.requireNonNull(admission, "admission");
            Objects.requireNonNull(settlement, "settlement");
        }
    }

    private final List<Pair> pairs;

    public PortStack(List<Pair> pairs) {
        this.pairs = List.copyOf(pairs);
        if (this.pairs.isEmpty()) {
            throw new IllegalArgumentException("a port stack has at least one pair");
        }
    }

    /** What every part admitted, in the order of the pairs. */
    record Stacked(List<Admitted> parts) implements Admitted {
        Stacked {
            parts = List.copyOf(parts);
        }

        @Override
        public Optional<String> refusal(Candidate candidate) {
            for (Admitted a : parts) {
                Optional<String> no = a.refusal(candidate);
                if (no.isPresent()) {
                    return no;
                }
            }
            return Optional.empty();
        }

        @Override
        public Optional<RateLimitStatus> rateLimits() {
            return parts.stream().map(Admitted::rateLimits).flatMap(Optional::stream).findFirst();
        }

        @Override
        public void release() {
            releaseAll(parts);
        }
    }

    /** The admission of the whole stack. */
    public Admission admission() {
        return request -> {
            List<Admitted> parts = new ArrayList<>(pairs.size());
            try {
                for (Pair p : pairs) {
                    parts.add(p.admission().admit(request));
                }
            } catch (RuntimeException refused) {
                releaseAll(parts);
                throw refused;
            }
            return new Stacked(parts);
        };
    }

    /** The settlement of the whole stack; an {@link Admitted} that is not the stack's is handed to each part as is. */
    public Settlement settlement() {
        return (admitted, outcome) -> {
            for (int i = 0; i < pairs.size(); i++) {
                Admitted part = admitted instanceof Stacked s ? s.parts().get(i) : admitted;
                try {
                    pairs.get(i).settlement().settle(part, outcome);
                } catch (RuntimeException e) {
                    LOG.atError().addKeyValue("request_id", outcome.requestId()).setCause(e).log("settlement failed");
                }
            }
        };
    }

    private static void releaseAll(List<Admitted> parts) {
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).release();
            } catch (RuntimeException e) {
                LOG.atError().setCause(e).log("releasing an admission failed");
            }
        }
    }
}
