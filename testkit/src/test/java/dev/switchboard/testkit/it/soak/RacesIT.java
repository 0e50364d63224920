package dev.switchboard.testkit.it.soak;

import static dev.switchboard.testkit.GatewayConfigSupport.header;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.billing.Balance;
import dev.switchboard.testkit.SseStream;
import dev.switchboard.testkit.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Races the issue names, each repeated in rounds with a seeded jitter before every request, against one gateway:
 *
 * <ul>
 *   <li>a balance against 200 parallel requests whose worst case is 1 USD each, with ten top-ups landing during the
 *       first wave and a second key of the same user revoked mid-race: exactly as many admitted as the balance plus
 *       the top-ups cover (the second wave comes after the top-ups, so the room is used up exactly), every request on
 *       the revoked key after the revocation a 401, the balance plus the charges equal to what was credited, never
 *       below zero, no hold left; on SQLite and PostgreSQL (the store is where the race is decided);
 *   <li>a daily token cap under 100 parallel requests: exactly the ten that fit are admitted, and once they settle at
 *       their estimate the next request is refused;
 *   <li>an rpm burst of 200 at rpm 50: exactly 50 admitted, 50 upstream calls;
 *   <li>one {@code Idempotency-Key} sent 20 times at once: one upstream call, one ledger charge, one body; the same
 *       key with another body a 409; on SQLite and PostgreSQL (the stored answers live there).
 * </ul>
 *
 * The upstream holds every admitted request until all are decided (a gate), so none settles and frees room meanwhile.
 */
class RacesIT {
    private static final int ROUNDS = Integer.getInteger("switchboard.races.rounds", 3);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final long USD = 1_000_000_000L;
    /** What one admitted request of the balance race is charged: 3 output tokens at 1000 USD per million. */
    private static final long CHARGE = 3_000_000L;
    /** The limit estimate of one request below: "hi" is one token, plus max_tokens 100. */
    private static final int ESTIMATE = 101;

    // Output at 1000 USD per million tokens and max_tokens 1000: the worst case of "paid" is 1 USD exactly.
    private static final String CONFIG = header("${RACE_DATABASE}")
            + providers(provider("gated", "openai", "${UPSTREAM_OPENAI}", "{connect: 2s, first_byte: 90s, idle: 90s, total: 120s}",
                    "sk-upstream-races-0123456789"))
            + models(
                    model("paid").limits(200000, 4096).pricing("{input: 0, output: 1000}").route("gated/up-gated"),
                    model("free").route("gated/up-gated"),
                    model("quick").route("gated/up-quick"),
                    model("idem").pricing("{input: 1, output: 2}").route("gated/up-gated"));

    /** The gate of the current round: admitted requests wait at the upstream until it opens. */
    private final AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(0));
    private final AtomicInteger gatedCalls = new AtomicInteger();
    /** The output tokens the gated upstream reports (3 for the balance race, 100 for the token cap). */
    private volatile int outputTokens = 3;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void onEachDatabase(String kind) throws Exception {
        try (ScratchDatabase database = ScratchDatabase.create(kind, "sbraces_")) {
            races(database.url());
        }
    }

    private void races(String database) throws Exception {
        try (TestGateway gateway = TestGateway.start(CONFIG, Map.of("RACE_DATABASE", database))) {
            gateway.upstream().script("up-gated", (request, exchange) -> {
                gatedCalls.incrementAndGet();
                try {
                    gate.get().await(90, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                SseStream sse = exchange.openSse(200);
                sse.data(chunk("{\"role\":\"assistant\",\"content\":\"paid in full\"}", "null", ""));
                sse.data(chunk("{}", "\"stop\"", ",\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":" + outputTokens
                        + ",\"total_tokens\":" + (1 + outputTokens) + "}"));
                sse.data("[DONE]");
                sse.end();
            });
            for (int round = 0; round < ROUNDS; round++) {
                Random jitter = new Random(20261124L + round);
                balanceAgainstTwoHundredWithTopUpsAndARevokedKey(gateway, jitter);
                dailyTokenCapUnderOneHundred(gateway, jitter);
                rpmBurstOfTwoHundred(gateway, jitter);
                oneIdempotencyKeyTwentyTimes(gateway, jitter);
            }
        }
    }

    private void balanceAgainstTwoHundredWithTopUpsAndARevokedKey(TestGateway gateway, Random jitter) throws Exception {
        AdminService admin = gateway.app().accounts().admin();
        User racer = admin.createUser(new AdminService.CreateUser(Optional.of("racer-" + UUID.randomUUID()), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("50.5")));
        String live = admin.createKey(racer.id(), AdminService.CreateKey.defaults()).secret();
        var doomed = admin.createKey(racer.id(), AdminService.CreateKey.defaults());
        String body = "{\"model\": \"paid\", \"max_tokens\": 1000, \"messages\": [{\"role\": \"user\", \"content\": \"go\"}]}";
        outputTokens = 3;
        CountDownLatch open = new CountDownLatch(1);
        gate.set(open);
        gatedCalls.set(0);
        // 50.5 USD + 10 x 3 USD of top-ups: room for exactly 80 requests at 1 USD each
        int admittedExpected = 80;
        List<Future<HttpResponse<String>>> first = new ArrayList<>();
        List<Future<HttpResponse<String>>> second = new ArrayList<>();
        List<Boolean> onDoomed = new ArrayList<>();
        AtomicReference<Long> revokedAt = new AtomicReference<>(Long.MAX_VALUE);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch go = new CountDownLatch(1);
            for (int i = 0; i < 100; i++) {
                String key = i % 2 == 0 ? live : doomed.secret();
                onDoomed.add(i % 2 == 1);
                first.add(pool.submit(jittered(go, jitter.nextInt(4), () -> post(gateway, "/v1/chat/completions", key, body, Map.of()))));
            }
            List<Future<?>> topUps = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int pause = jitter.nextInt(4);
                topUps.add(pool.submit(() -> {
                    go.await();
                    Thread.sleep(pause);
                    return admin.addCredits(racer.id(), new AdminService.AddCredits(Optional.of("3"), Optional.of("top-up")));
                }));
            }
            int revokePause = jitter.nextInt(4);
            Future<?> revoke = pool.submit(() -> {
                go.await();
                Thread.sleep(revokePause);
                admin.revokeKey(doomed.key().id());
                revokedAt.set(System.nanoTime());
                return null;
            });
            go.countDown();
            for (Future<?> f : topUps) {
                f.get(60, TimeUnit.SECONDS);
            }
            revoke.get(60, TimeUnit.SECONDS);
            // the second wave comes after every top-up and the revocation: it uses up whatever room is left, exactly
            CountDownLatch go2 = new CountDownLatch(1);
            for (int i = 0; i < 100; i++) {
                boolean toDoomed = i % 10 == 9;
                onDoomed.add(toDoomed);
                String key = toDoomed ? doomed.secret() : live;
                second.add(pool.submit(jittered(go2, jitter.nextInt(4), () -> post(gateway, "/v1/chat/completions", key, body, Map.of()))));
            }
            go2.countDown();
            List<Future<HttpResponse<String>>> all = new ArrayList<>(first);
            all.addAll(second);
            await(() -> all.stream().filter(Future::isDone).count() >= all.size() - admittedExpected
                    && gatedCalls.get() >= admittedExpected, "every request decided");
            Balance during = gateway.app().balances().balance(racer.id()).orElseThrow();
            assertThat(during).as("while the admitted are held").isEqualTo(new Balance(80_500_000_000L, 80 * USD));
            open.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<HttpResponse<String>> f : all) {
                statuses.add(f.get(60, TimeUnit.SECONDS).statusCode());
            }
            assertThat(statuses.stream().filter(s -> s == 200).count()).as("statuses %s", statuses).isEqualTo(admittedExpected);
            for (int i = 0; i < all.size(); i++) {
                int s = statuses.get(i);
                assertThat(s).as("request %d: %s", i, all.get(i).get().body()).isIn(200, 401, 402);
                if (s == 401) {
                    assertThat(onDoomed.get(i)).as("a 401 on the live key").isTrue();
                }
                if (i >= 100 && onDoomed.get(i)) {
                    assertThat(s).as("a request on the key after its revocation").isEqualTo(401);
                }
            }
        }
        assertThat(gatedCalls.get()).isEqualTo(admittedExpected);
        Balance after = gateway.app().balances().balance(racer.id()).orElseThrow();
        List<LedgerEntry> ledger = admin.ledger(racer.id(), 500);
        long charges = ledger.stream().filter(e -> e.kind() == LedgerEntry.Kind.CHARGE).mapToLong(LedgerEntry::amountNanos).sum();
        long credits = ledger.stream().filter(e -> e.kind() == LedgerEntry.Kind.CREDIT).mapToLong(LedgerEntry::amountNanos).sum();
        assertThat(ledger).filteredOn(e -> e.kind() == LedgerEntry.Kind.CHARGE).hasSize(admittedExpected);
        assertThat(credits).isEqualTo(80_500_000_000L);
        assertThat(charges).isEqualTo(-admittedExpected * CHARGE);
        assertThat(after).isEqualTo(new Balance(credits + charges, 0));
        assertThat(ledger).allSatisfy(e -> assertThat(e.balanceAfterNanos()).isNotNegative());
        assertThat(gateway.app().balances().openHolds()).isZero();
    }

    private void dailyTokenCapUnderOneHundred(TestGateway gateway, Random jitter) throws Exception {
        String key = key(gateway, new AdminService.LimitsInput(OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.of(10L * ESTIMATE), OptionalLong.empty(), Optional.empty(), Optional.empty()));
        // each admitted request settles at exactly its estimate (1 prompt + 100 output tokens)
        outputTokens = 100;
        CountDownLatch open = new CountDownLatch(1);
        gate.set(open);
        gatedCalls.set(0);
        List<Future<HttpResponse<String>>> sent = burst(gateway, 100, key, "free", jitter);
        await(() -> sent.stream().filter(Future::isDone).count() >= 90 && gatedCalls.get() >= 10, "every request decided");
        open.countDown();
        List<Integer> statuses = statuses(sent);
        assertThat(statuses.stream().filter(s -> s == 200).count()).as("statuses %s", statuses).isEqualTo(10);
        assertThat(statuses.stream().filter(s -> s == 429).count()).isEqualTo(90);
        assertThat(gatedCalls.get()).isEqualTo(10);
        HttpResponse<String> next = post(gateway, "/v1/chat/completions", key, ask("free"), Map.of());
        assertThat(next.statusCode()).as("the cap is used up exactly: %s", next.body()).isEqualTo(429);
        assertThat(next.body()).contains("daily");
    }

    private void rpmBurstOfTwoHundred(TestGateway gateway, Random jitter) throws Exception {
        String key = key(gateway, new AdminService.LimitsInput(OptionalLong.of(50), OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.empty(), Optional.empty(), Optional.empty()));
        int before = gateway.upstream().received("up-quick").size();
        List<Integer> statuses = statuses(burst(gateway, 200, key, "quick", jitter));
        assertThat(statuses.stream().filter(s -> s == 200).count()).as("statuses %s", statuses).isEqualTo(50);
        assertThat(statuses.stream().filter(s -> s == 429).count()).isEqualTo(150);
        assertThat(gateway.upstream().received("up-quick").size() - before).isEqualTo(50);
    }

    private void oneIdempotencyKeyTwentyTimes(TestGateway gateway, Random jitter) throws Exception {
        AdminService admin = gateway.app().accounts().admin();
        User user = admin.createUser(new AdminService.CreateUser(Optional.of("idem-" + UUID.randomUUID()), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("10")));
        String key = admin.createKey(user.id(), AdminService.CreateKey.defaults()).secret();
        outputTokens = 7;
        CountDownLatch open = new CountDownLatch(1);
        gate.set(open);
        gatedCalls.set(0);
        String idempotencyKey = UUID.randomUUID().toString();
        String body = "{\"model\": \"idem\", \"messages\": [{\"role\": \"user\", \"content\": \"once " + idempotencyKey + "\"}]}";
        List<Future<HttpResponse<String>>> sent = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch go = new CountDownLatch(1);
            for (int i = 0; i < 20; i++) {
                sent.add(pool.submit(jittered(go, jitter.nextInt(4), () -> post(gateway, "/v1/chat/completions", key, body,
                        Map.of("Idempotency-Key", idempotencyKey)))));
            }
            go.countDown();
            // all 20 are in before the one upstream call may answer
            await(() -> gatedCalls.get() >= 1, "the upstream call");
            Thread.sleep(300);
            open.countDown();
            List<String> bodies = new ArrayList<>();
            for (Future<HttpResponse<String>> f : sent) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                bodies.add(r.body());
            }
            assertThat(bodies).as("one answer body").containsOnly(bodies.getFirst());
        }
        assertThat(gatedCalls.get()).as("upstream calls").isEqualTo(1);
        assertThat(admin.ledger(user.id(), 100)).filteredOn(e -> e.kind() == LedgerEntry.Kind.CHARGE).hasSize(1);
        HttpResponse<String> other = post(gateway, "/v1/chat/completions", key,
                body.replace("once ", "twice "), Map.of("Idempotency-Key", idempotencyKey));
        assertThat(other.statusCode()).as(other.body()).isEqualTo(409);
        assertThat(other.body()).contains("Idempotency-Key");
        assertThat(gatedCalls.get()).isEqualTo(1);
        assertThat(gateway.app().balances().openHolds()).isZero();
    }

    private static String key(TestGateway gateway, AdminService.LimitsInput limits) {
        AdminService admin = gateway.app().accounts().admin();
        User user = admin.createUser(new AdminService.CreateUser(Optional.of("limited-" + UUID.randomUUID()), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("10")));
        AdminService.CreateKey d = AdminService.CreateKey.defaults();
        return admin.createKey(user.id(), new AdminService.CreateKey(d.name(), d.models(), d.endpoints(), limits, d.expiresAt()))
                .secret();
    }

    private static List<Future<HttpResponse<String>>> burst(TestGateway gateway, int n, String key, String model, Random jitter)
            throws InterruptedException {
        List<Future<HttpResponse<String>>> sent = new ArrayList<>();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        CountDownLatch go = new CountDownLatch(1);
        for (int i = 0; i < n; i++) {
            sent.add(pool.submit(jittered(go, jitter.nextInt(4), () -> post(gateway, "/v1/chat/completions", key, ask(model), Map.of()))));
        }
        go.countDown();
        pool.shutdown();
        return sent;
    }

    private static List<Integer> statuses(List<Future<HttpResponse<String>>> sent) throws Exception {
        List<Integer> out = new ArrayList<>();
        for (Future<HttpResponse<String>> f : sent) {
            out.add(f.get(120, TimeUnit.SECONDS).statusCode());
        }
        return out;
    }

    private static <T> java.util.concurrent.Callable<T> jittered(CountDownLatch go, int millis,
                                                                  java.util.concurrent.Callable<T> call) {
        return () -> {
            go.await();
            Thread.sleep(millis);
            return call.call();
        };
    }

    private static String ask(String model) {
        return "{\"model\": \"" + model + "\", \"max_tokens\": 100, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}";
    }

    private static HttpResponse<String> post(TestGateway gateway, String path, String key, String body,
                                             Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).timeout(Duration.ofSeconds(120))
                .header("authorization", "Bearer " + key).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    private static String chunk(String delta, String finishReason, String extra) {
        return "{\"id\":\"chatcmpl-race\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"up-gated\","
                + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finishReason + "}]" + extra + "}";
    }
}
