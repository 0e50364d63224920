package dev.switchboard.testkit.soak;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reconciles the money after a soak: exactly one ledger charge per billed request id, each equal to its usage
 * record's charge and to a charge the {@link MoneyOracle} allows for what the client saw; the sum of the charges
 * equal to the predicted total; the balance changed by exactly minus that sum, never negative, nothing held and no
 * hold open; a request that delivered no byte charged nothing. Charges for a request id no client saw are allowed
 * only for requests a kill cut before their headers arrived, at most one each, and only at the cost of their own
 * recorded tokens.
 */
final class MoneyCheck {
    private MoneyCheck() {
    }

    /**
     * @param startBalance the balance the user was given (nano-dollars)
     * @param killed       whether the observation overlapped a kill
     * @param attempts     the upstream attempts of a soak request
     */
    static void reconcile(List<Observation> observations, Function<Observation, Boolean> killed,
                          Function<Long, List<UpstreamAttempt>> attempts, MoneyOracle oracle, MoneyBook book,
                          long startBalance, SoakReport.Builder report) {
        Set<String> seen = new HashSet<>();
        long predicted = 0;
        int exact = 0;
        int bounded = 0;
        int charged = 0;
        int killedWithoutId = 0;
        for (Observation o : observations) {
            boolean cut = killed.apply(o);
            List<UpstreamAttempt> tried = attempts.apply(o.n());
            MoneyOracle.Allowed allowed = oracle.allowed(o, tried, Oracle.answering(o, tried), cut);
            if (o.requestId().isEmpty()) {
                if (cut || o.kind() == Observation.Kind.BROKEN) {
                    killedWithoutId++;
                }
                continue;
            }
            seen.add(o.requestId());
            long charge = charge(o, book, report);
            if (!allowed.allows(charge)) {
                report.violation(o.n(), o.format() + (o.streamed() ? " streamed " : " ") + o.kind() + " " + o.requestId()
                        + ": charged " + charge + " nanos, the oracle allows " + allowed.charges() + " (attempts " + tried
                        + (o.kind() == Observation.Kind.REFUSED ? "; it delivered no byte" : "") + ")");
            }
            if (allowed.exact()) {
                exact++;
                predicted += allowed.charges().iterator().next();
            } else {
                bounded++;
                predicted += allowed.allows(charge) ? charge : 0;
            }
            charged += charge > 0 ? 1 : 0;
        }
        // charges for ids no client saw: only a kill can make one (settled, then killed before the headers went out)
        int unknown = 0;
        for (Map.Entry<String, List<Long>> e : book.charges().entrySet()) {
            if (seen.contains(e.getKey())) {
                continue;
            }
            unknown++;
            MoneyBook.UsageRow row = book.usage().get(e.getKey());
            long sum = e.getValue().stream().mapToLong(Long::longValue).sum();
            if (e.getValue().size() != 1 || row == null || row.charged() != sum
                    || sum != oracle.charge(row.provider(), row.input(), row.output())) {
                report.violation(-1, "a charge of " + e.getValue() + " nanos for request " + e.getKey()
                        + ", which no client saw, does not match its usage record " + row);
            }
            predicted += sum;
        }
        if (unknown > killedWithoutId) {
            report.violation(-1, unknown + " charges for request ids no client saw, but only " + killedWithoutId
                    + " requests were cut by a kill before their headers");
        }
        long sum = book.chargeSum();
        if (sum != predicted) {
            report.violation(-1, "the ledger charges sum to " + sum + " nanos, the oracle predicted " + predicted);
        }
        long start = startBalance;
        if (book.credits() != start) {
            report.violation(-1, "credits of " + book.credits() + " nanos, the run gave " + start);
        }
        if (book.balance() - start != -sum) {
            report.violation(-1, "the balance changed by " + (book.balance() - start) + " nanos, the charges sum to " + sum);
        }
        if (book.balance() < 0) {
            report.violation(-1, "the balance is negative: " + book.balance() + " nanos");
        }
        if (book.held() != 0 || !book.openHolds().isEmpty()) {
            report.violation(-1, book.held() + " nanos still held, open holds " + book.openHolds().stream().limit(10).toList()
                    + " after the sweeper's deadline");
        }
        report.money(String.format("%d charges, sum %d nanos = predicted %d (%d requests exact, %d bounded: client left or "
                        + "kill; %d charged ids no client saw); balance %d -> %d; held %d; open holds %d",
                book.charges().size(), sum, predicted, exact, bounded, unknown, start, book.balance(), book.held(),
                book.openHolds().size()));
    }

    /** The request's ledger charge (0 when none), checking it is one entry and matches the usage record. */
    private static long charge(Observation o, MoneyBook book, SoakReport.Builder report) {
        List<Long> entries = book.charges().getOrDefault(o.requestId(), List.of());
        Optional<MoneyBook.UsageRow> row = Optional.ofNullable(book.usage().get(o.requestId()));
        if (entries.size() > 1) {
            report.violation(o.n(), o.requestId() + ": " + entries.size() + " ledger charges " + entries);
        }
        long charge = entries.stream().mapToLong(Long::longValue).sum();
        long recorded = row.map(MoneyBook.UsageRow::charged).orElse(0L);
        if (recorded != charge) {
            report.violation(o.n(), o.requestId() + ": the ledger charged " + charge + " nanos, the usage record says "
                    + recorded + " (" + row.map(Object::toString).orElse("no record") + ")");
        }
        if (row.isPresent() && row.get().cost() != row.get().charged()) {
            report.violation(o.n(), o.requestId() + ": cost " + row.get().cost() + " but charged " + row.get().charged()
                    + " with no plan and a large balance");
        }
        if (o.kind() == Observation.Kind.REFUSED && row.isPresent()) {
            report.violation(o.n(), o.requestId() + ": a usage record for a request that delivered no byte: " + row.get());
        }
        return charge;
    }
}
