package dev.switchboard.testkit.soak;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Predicts what each soak request may be charged, in nano-dollars, from what the fake upstreams reported and what
 * the client received, by the billing rule of the product written out again here (not borrowed from it, so a
 * wrong rule there shows up as a difference): every token class times its price in nano-dollars per million
 * tokens, summed exactly, then divided by a million and rounded once, half up.
 *
 * <p>The usage the gateway bills is the upstream's report (12 prompt tokens, one output token per chunk) for an
 * answer that completed, and its own estimate for a stream cut after content or left by its client: the prompt at
 * four characters a token (rounded up) and the text delivered at four characters a token (rounded up), each never
 * below what the upstream reported. For a stream the upstream cut, the client received everything the gateway
 * relayed before the in-band error, so the prediction is exact. For a client that left, the gateway may have relayed
 * a chunk or two into the closed socket after the client stopped reading: the charge is then one of the few values
 * between what the client read and what the upstream sent. A request that never delivered a byte costs 0.
 */
final class MoneyOracle {
    private static final BigInteger MILLION = BigInteger.valueOf(1_000_000);
    private static final BigInteger HALF = BigInteger.valueOf(500_000);

    /** A model's prices in nano-dollars per million tokens. */
    record Price(long inputPerMillion, long outputPerMillion) {
    }

    private final Map<String, Price> byProvider;

    /** {@code byProvider}: the price of the model each provider serves in the soak. */
    MoneyOracle(Map<String, Price> byProvider) {
        this.byProvider = Map.copyOf(byProvider);
    }

    /** The exact charge of {@code input} and {@code output} tokens at {@code provider}'s model's prices. */
    long charge(String provider, long input, long output) {
        Price p = byProvider.get(provider);
        BigInteger sum = BigInteger.valueOf(input).multiply(BigInteger.valueOf(p.inputPerMillion()))
                .add(BigInteger.valueOf(output).multiply(BigInteger.valueOf(p.outputPerMillion())));
        return sum.add(HALF).divide(MILLION).longValueExact();
    }

    /** Whether the set of allowed charges is one value (an exact prediction) or a few (a client left, a kill). */
    record Allowed(Set<Long> charges, boolean exact) {
        boolean allows(long charge) {
            return charges.contains(charge);
        }
    }

    /**
     * The charges the request may have: exactly one value unless its client left mid-stream or a kill overlapped it.
     *
     * @param answering the attempt whose content the client got (or the last that delivered any), if any
     */
    Allowed allowed(Observation o, List<UpstreamAttempt> attempts, java.util.Optional<UpstreamAttempt> answering,
                    boolean overlappedKill) {
        long promptEstimate = ceilQuarter(prompt(o.n()).length());
        if (overlappedKill || o.kind() == Observation.Kind.BROKEN) {
            // the process may have died before or after settling, on any attempt it had made
            Set<Long> any = new TreeSet<>(Set.of(0L));
            for (UpstreamAttempt a : attempts) {
                any.addAll(cutOrLeft(a, 0, promptEstimate));
            }
            return new Allowed(any, false);
        }
        return switch (o.kind()) {
            case REFUSED -> new Allowed(Set.of(0L), true);
            case ANSWERED -> {
                if (answering.isEmpty()) {
                    yield new Allowed(Set.of(0L), true);
                }
                UpstreamAttempt a = answering.get();
                if (!o.streamed() || !o.inBandError()) {
                    yield new Allowed(Set.of(charge(a.provider, SoakUpstreams.PROMPT_TOKENS, a.chunksSent)), true);
                }
                // cut after content: input and the text the client got (which is all the gateway relayed), estimated,
                // never below what the upstream reported if its usage had arrived
                long out = ceilQuarter(o.text().length());
                Set<Long> set = new TreeSet<>(Set.of(charge(a.provider, promptEstimate, out)));
                if (a.completed) {
                    set.add(charge(a.provider, Math.max(SoakUpstreams.PROMPT_TOKENS, promptEstimate), Math.max(a.chunksSent, out)));
                }
                yield new Allowed(set, set.size() == 1);
            }
            case ABORTED -> answering.map(a -> new Allowed(cutOrLeft(a, SoakUpstreams.stamps(o.text()), promptEstimate), false))
                    .orElse(new Allowed(Set.of(0L), true));
            case BROKEN -> throw new IllegalStateException("handled above");
        };
    }

    /**
     * The charges of attempt {@code a} cut or left after {@code from} to all of its chunks had been relayed, and, if it
     * completed, its reported usage.
     */
    private Set<Long> cutOrLeft(UpstreamAttempt a, int from, long promptEstimate) {
        Set<Long> set = new TreeSet<>();
        StringBuilder text = new StringBuilder();
        for (int k = 0; k <= a.chunksSent; k++) {
            if (k >= from) {
                set.add(charge(a.provider, promptEstimate, ceilQuarter(text.length())));
            }
            if (k < a.chunksSent) {
                text.append(SoakUpstreams.stamp(a, k));
            }
        }
        if (a.completed) {
            long out = ceilQuarter(text.length());
            set.add(charge(a.provider, SoakUpstreams.PROMPT_TOKENS, a.chunksSent));
            set.add(charge(a.provider, Math.max(SoakUpstreams.PROMPT_TOKENS, promptEstimate), Math.max(a.chunksSent, out)));
        }
        return set;
    }

    /** The prompt of soak request {@code n}, as {@link SoakClient} sends it. */
    static String prompt(long n) {
        return "Please answer soak-" + n + "-end";
    }

    private static long ceilQuarter(long chars) {
        return (chars + 3) / 4;
    }
}
