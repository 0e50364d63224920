package dev.switchboard.testkit.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The soak's money reconciliation finds what it is there to find: a wrong amount, a second charge, a charge for a
 * request that delivered nothing, a charge no client can account for, a balance that moved by another amount, and a
 * hold left open; and it passes an exact book.
 */
class MoneyCheckTest {
    private static final MoneyOracle ORACLE = new MoneyOracle(Map.of("p1", Soak.SOAK_A, "p3", Soak.SOAK_B));
    private static final long START = 1_000_000_000_000L;

    @Test
    void theRuleIsEveryTokenClassTimesItsPriceSummedThenRoundedOnceHalfUp() {
        // 12 x 1,234,567,891 + 9 x 3,333,333,337 = 44,814,814,725 nano-millionths -> 44,814.8 -> 44,815
        assertThat(ORACLE.charge("p1", 12, 9)).isEqualTo(44_815L);
        // rounding each class on its own would differ: 1,234.567891 -> 1,235 plus 6,666.666674 -> 6,667 = 7,902;
        // summed first, 7,901.234565 -> 7,901
        assertThat(ORACLE.charge("p1", 1, 2)).isEqualTo(7_901L);
        assertThat(ORACLE.charge("p1", 0, 3)).isEqualTo(10_000L);
    }

    @Test
    void anExactBookPasses() {
        Fixture f = new Fixture();
        long charge = ORACLE.charge("p1", SoakUpstreams.PROMPT_TOKENS, 8);
        f.answered(1, "req_1", "p1", 8, charge);
        f.refused(2, "req_2");

        assertThat(f.reconcile(START - charge, 0, List.of())).isEmpty();
    }

    @Test
    void aWrongAmountASecondChargeAndAChargeForNothingAreEachFound() {
        Fixture f = new Fixture();
        long charge = ORACLE.charge("p1", SoakUpstreams.PROMPT_TOKENS, 8);
        f.answered(1, "req_1", "p1", 8, charge + 1);
        f.answered(2, "req_2", "p1", 8, charge);
        f.book.charges.get("req_2").add(charge);
        f.refused(3, "req_3");
        f.charge("req_3", "p1", 1, 1, 5);

        List<String> v = f.reconcile(START - (charge + 1) - 2 * charge - 5, 0, List.of());

        assertThat(v).anyMatch(s -> s.contains("[request 1]") && s.contains("charged " + (charge + 1)));
        assertThat(v).anyMatch(s -> s.contains("[request 2]") && s.contains("2 ledger charges"));
        assertThat(v).anyMatch(s -> s.contains("[request 3]") && s.contains("delivered no byte"));
    }

    @Test
    void aChargeNoClientSawABalanceOffByOneAndAnOpenHoldAreFound() {
        Fixture f = new Fixture();
        f.charge("req_ghost", "p3", 12, 5, ORACLE.charge("p3", 12, 5));

        List<String> v = f.reconcile(START - ORACLE.charge("p3", 12, 5) - 1, 7, List.of("req_open"));

        assertThat(v).anyMatch(s -> s.contains("request ids no client saw"));
        assertThat(v).anyMatch(s -> s.contains("the balance changed by"));
        assertThat(v).anyMatch(s -> s.contains("still held") && s.contains("req_open"));
    }

    @Test
    void aClientThatLeftMayBeChargedForTheChunksRelayedAfterItStoppedReadingButNoMore() {
        UpstreamAttempt a = new UpstreamAttempt("p1-1", "p1", 5, 0, Fault.NONE);
        a.chunksSent = 6;
        String twoStamps = SoakUpstreams.stamp(a, 0) + SoakUpstreams.stamp(a, 1);
        Observation left = new Observation(5, "req_5", ClientFormat.CHAT, true, Observation.Kind.ABORTED, 200, twoStamps,
                false, false, "", -1, 0, 1, 1);
        long prompt = (MoneyOracle.prompt(5).length() + 3) / 4;

        MoneyOracle.Allowed allowed = ORACLE.allowed(left, List.of(a), Optional.of(a), false);

        assertThat(allowed.exact()).isFalse();
        assertThat(allowed.allows(ORACLE.charge("p1", prompt, (twoStamps.length() + 3) / 4))).isTrue();
        assertThat(allowed.allows(ORACLE.charge("p1", prompt, 0))).as("less than the client read").isFalse();
        assertThat(allowed.allows(ORACLE.charge("p1", prompt, 100))).as("more than the upstream sent").isFalse();
    }

    /** Observations, attempts and a book built by hand. */
    private static final class Fixture {
        final List<Observation> observations = new java.util.ArrayList<>();
        final Map<Long, List<UpstreamAttempt>> attempts = new HashMap<>();
        final MutableBook book = new MutableBook();

        void answered(long n, String rid, String provider, int chunks, long charged) {
            UpstreamAttempt a = new UpstreamAttempt(provider + "-" + n, provider, n, 0, Fault.NONE);
            a.chunksSent = chunks;
            a.completed = true;
            attempts.put(n, List.of(a));
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < chunks; i++) {
                text.append(SoakUpstreams.stamp(a, i));
            }
            observations.add(new Observation(n, rid, ClientFormat.CHAT, false, Observation.Kind.ANSWERED, 200, text.toString(),
                    false, true, "", chunks, 0, 1, 0));
            charge(rid, provider, SoakUpstreams.PROMPT_TOKENS, chunks, charged);
        }

        void refused(long n, String rid) {
            observations.add(new Observation(n, rid, ClientFormat.CHAT, false, Observation.Kind.REFUSED, 503, "", false, false,
                    "", -1, 0, 1, 0));
        }

        void charge(String rid, String provider, long in, long out, long charged) {
            book.charges.computeIfAbsent(rid, k -> new java.util.ArrayList<>()).add(charged);
            book.usage.put(rid, new MoneyBook.UsageRow(provider, in, out, charged, charged, "REPORTED", "COMPLETED"));
        }

        List<String> reconcile(long balance, long held, List<String> openHolds) {
            SoakReport.Builder report = new SoakReport.Builder(new SoakSettings(1, 1, 0, 0, 0, 1, "sqlite", Path.of("unused")));
            MoneyCheck.reconcile(observations, o -> false, n -> attempts.getOrDefault(n, List.of()), ORACLE,
                    new MoneyBook(book.charges, book.usage, START, balance, held, openHolds), START, report);
            return report.build().violations();
        }
    }

    private static final class MutableBook {
        final Map<String, List<Long>> charges = new HashMap<>();
        final Map<String, MoneyBook.UsageRow> usage = new HashMap<>();
    }
}
