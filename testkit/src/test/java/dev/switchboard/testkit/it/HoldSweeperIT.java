package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.billing.Balance;
import dev.switchboard.store.Database;
import dev.switchboard.store.JdbcAccountStore;
import dev.switchboard.store.JdbcBalanceStore;
import dev.switchboard.testkit.FakeUpstream;
import dev.switchboard.testkit.HttpSupport;
import dev.switchboard.testkit.PortSupport;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway killed with {@code kill -9} while requests hold credit: after a restart and the holds' deadline, the
 * sweeper has released every hold, the balance is whole again but for the one request that completed before the
 * kill, and that request was charged exactly once. The gateway runs as a separate JVM (the test's classpath), so
 * the kill is a real SIGKILL: no shutdown hook, no settlement.
 */
class HoldSweeperIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void holdsOfAKilledGatewayAreReleasedAfterRestartAndNothingIsChargedTwice() throws Exception {
        try (FakeUpstream upstream = FakeUpstream.start()) {
            upstream.requireKey(ItSupport.UPSTREAM_KEY);
            int port = PortSupport.freeLoopbackPort();
            String database = "sqlite:" + dir.resolve("sweep.db");
            Path config = dir.resolve("switchboard.yaml");
            Files.writeString(config, """
                    listen: 127.0.0.1:%d
                    database: %s
                    admin_key: %s
                    billing: {hold_timeout: 3s, sweep_every: 200ms}
                    """.formatted(port, database, TestGateway.ADMIN_KEY)
                    + providers(provider("gpt", "openai", upstream.openAiBaseUrl(),
                            "{connect: 1s, first_byte: 120s, idle: 120s, total: 300s}", ItSupport.UPSTREAM_KEY))
                    + models(
                            model("paid").limits(100000, 1000).pricing("{input: 1, output: 100}").route("gpt/up-paid"),
                            model("stuck").limits(100000, 1000).pricing("{input: 1, output: 100}").route("gpt/up-stuck-hang")));
            String base = "http://127.0.0.1:" + port;

            Process gateway = start(config, base);
            String key;
            String userId;
            try {
                JsonNode user = ItSupport.json(admin(base, "/admin/v1/users", "{\"name\": \"swept\", \"balance_usd\": \"10\"}"));
                userId = user.path("id").asText();
                key = ItSupport.json(admin(base, "/admin/v1/users/" + userId + "/keys", "{}")).path("key").asText();
                HttpResponse<String> done = chat(base, key, "paid");
                assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
                // Three requests that will never be answered, each holding its worst case.
                for (int i = 0; i < 3; i++) {
                    CompletableFuture.runAsync(() -> chat(base, key, "stuck"));
                }
                try (Database db = Database.open(database)) {
                    JdbcBalanceStore balances = new JdbcBalanceStore(db);
                    await(() -> balances.openHolds() == 3);
                }
            } finally {
                gateway.destroyForcibly().waitFor();
            }

            long charged;
            try (Database db = Database.open(database)) {
                JdbcBalanceStore balances = new JdbcBalanceStore(db);
                Balance killed = balances.balance(userId).orElseThrow();
                assertThat(balances.openHolds()).as("the kill settled nothing").isEqualTo(3);
                assertThat(killed.heldNanos()).isPositive();
                charged = 10_000_000_000L - killed.balanceNanos();
                assertThat(charged).as("the completed request").isPositive();
            }

            Process restarted = start(config, base);
            try (Database db = Database.open(database)) {
                JdbcBalanceStore balances = new JdbcBalanceStore(db);
                await(() -> balances.openHolds() == 0);
                assertThat(balances.balance(userId)).contains(new Balance(10_000_000_000L - charged, 0));
                List<LedgerEntry> charges = new ArrayList<>(new JdbcAccountStore(db).ledger(userId, 100));
                charges.removeIf(e -> e.kind() != LedgerEntry.Kind.CHARGE);
                assertThat(charges).hasSize(1);
                assertThat(charges.getFirst().amountNanos()).isEqualTo(-charged);
                // The restarted gateway bills as before.
                assertThat(chat(base, key, "paid").statusCode()).isEqualTo(200);
                assertThat(balances.balance(userId).orElseThrow().balanceNanos()).isEqualTo(10_000_000_000L - 2 * charged);
            } finally {
                restarted.destroy();
                restarted.waitFor();
            }
        }
    }

    private Process start(Path config, String base) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.switchboard.server.Main",
                "--config", config.toString(), "serve")
                .redirectErrorStream(true).redirectOutput(dir.resolve("gateway.log").toFile()).start();
        await(() -> {
            try {
                return HTTP.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        return p;
    }

    private static String admin(String base, String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("authorization", "Bearer " + TestGateway.ADMIN_KEY).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 201);
        return r.body();
    }

    private static HttpResponse<String> chat(String base, String key, String model) {
        return HttpSupport.send(HTTP, HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .header("authorization", "Bearer " + key).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\": \"" + model
                        + "\", \"max_tokens\": 500, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Polls until {@code condition} holds; fails after a minute (a bound, not a measurement). */
    private static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within a minute");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
