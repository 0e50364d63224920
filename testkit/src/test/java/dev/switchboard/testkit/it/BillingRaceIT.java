package dev.switchboard.testkit.it;

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
import dev.switchboard.engine.billing.UsageQuery;
import dev.switchboard.testkit.SseStream;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.soak.ScratchDatabase;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No interleaving of concurrent requests can overdraw a balance: 50 requests at once whose worst case is
 * exactly 1 USD each, against 5.50 USD, with an upstream that holds every admitted request until the race is
 * over (so none settles and frees credit meanwhile): exactly 5 are admitted and answered, 45 get 402 before any
 * upstream call, the balance never goes below zero, and the ledger has exactly 5 charges. On SQLite and, with
 * {@code -Dswitchboard.test.postgres=true}, on PostgreSQL (a schema of its own).
 */
class BillingRaceIT {
    private static final int REQUESTS = 50;

    // Output at 1000 USD per million tokens and max_tokens 1000: the worst case is 1 USD exactly (input is free).
    private static final String CONFIG = header("${RACE_DATABASE}")
            + providers(provider("gpt", "openai", "${UPSTREAM_OPENAI}", "{connect: 1s, first_byte: 60s, idle: 60s, total: 120s}",
                    ItSupport.UPSTREAM_KEY))
            + models(model("race").limits(200000, 4096).pricing("{input: 0, output: 1000}").route("gpt/up-gated"));

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void onEachDatabase(String kind) throws Exception {
        try (ScratchDatabase database = ScratchDatabase.create(kind, "sbrace_")) {
            race(database.url());
        }
    }

    private static void race(String database) throws Exception {
        try (TestGateway gateway = TestGateway.start(CONFIG, Map.of("RACE_DATABASE", database))) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger upstreamCalls = new AtomicInteger();
            gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY).script("up-gated", (request, exchange) -> {
                upstreamCalls.incrementAndGet();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                SseStream sse = exchange.openSse(200);
                sse.data(chunk("{\"role\":\"assistant\",\"content\":\"paid in full\"}", "null", ""));
                sse.data(chunk("{}", "\"stop\"", ",\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}"));
                sse.data("[DONE]");
                sse.end();
            });
            AdminService admin = gateway.app().accounts().admin();
            User racer = admin.createUser(new AdminService.CreateUser(Optional.of("racer"), Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.of("5.50")));
            String key = admin.createKey(racer.id(), AdminService.CreateKey.defaults()).secret();
            String body = "{\"model\": \"race\", \"max_tokens\": 1000, \"messages\": [{\"role\": \"user\", \"content\": \"go\"}]}";

            ExecutorService pool = Executors.newFixedThreadPool(REQUESTS);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> sent = new ArrayList<>();
            try {
                for (int i = 0; i < REQUESTS; i++) {
                    sent.add(pool.submit(() -> {
                        start.await();
                        return ItSupport.post(gateway, "/v1/chat/completions", ItSupport.bearer(key), body);
                    }));
                }
                start.countDown();
                // The refused answer at once; the admitted wait at the gated upstream until released.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (sent.stream().filter(Future::isDone).count() < REQUESTS - 5 || upstreamCalls.get() < 5) {
                    if (System.nanoTime() > deadline) {
                        break;
                    }
                    Thread.sleep(20);
                }
                List<HttpResponse<String>> refused = new ArrayList<>();
                for (Future<HttpResponse<String>> f : sent) {
                    if (f.isDone()) {
                        refused.add(f.get());
                    }
                }
                assertThat(refused).as("answered before any admitted request was").allSatisfy(r ->
                        assertThat(r.statusCode()).isEqualTo(402));
                Balance during = gateway.app().balances().balance(racer.id()).orElseThrow();
                release.countDown();
                List<HttpResponse<String>> all = new ArrayList<>();
                for (Future<HttpResponse<String>> f : sent) {
                    all.add(f.get(60, TimeUnit.SECONDS));
                }

                assertThat(all).filteredOn(r -> r.statusCode() == 200).hasSize(5);
                assertThat(all).filteredOn(r -> r.statusCode() == 402).hasSize(45)
                        .allSatisfy(r -> assertThat(r.body()).contains("insufficient_quota").contains("the balance covers"));
                assertThat(refused).as("every refusal came while the admitted were still held").hasSize(45);
                assertThat(upstreamCalls.get()).isEqualTo(5);
                assertThat(during).isEqualTo(new Balance(5_500_000_000L, 5_000_000_000L));
                Balance after = gateway.app().balances().balance(racer.id()).orElseThrow();
                // 3 output tokens at 1000 USD per million, 5 times.
                assertThat(after).isEqualTo(new Balance(5_500_000_000L - 5 * 3_000_000L, 0));
                assertThat(gateway.app().balances().openHolds()).isZero();
                assertThat(admin.ledger(racer.id(), 100)).filteredOn(e -> e.kind() == LedgerEntry.Kind.CHARGE).hasSize(5);
                assertThat(gateway.app().balances().usage(new UsageQuery(Optional.of(racer.id()), Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), 0, 100))).hasSize(5);
            } finally {
                release.countDown();
                pool.shutdownNow();
            }
        }
    }

    private static String chunk(String delta, String finishReason, String extra) {
        return "{\"id\":\"chatcmpl-race\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"up-gated\","
                + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finishReason + "}]" + extra + "}";
    }
}
