package dev.switchboard.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.wire.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI twins of the money routes: plan with expiry, idempotent credits, the ledger and the usage view. */
class MoneyCliTest {
    @TempDir
    Path home;
    private String config;

    @BeforeEach
    void writeConfig() throws Exception {
        Path file = home.resolve("switchboard.yaml");
        Files.writeString(file, """
                database: sqlite:data/switchboard.db
                providers:
                  sim: {type: simulator}
                models:
                  sim-chat:
                    context_length: 8192
                    max_output_tokens: 1024
                    pricing: {input: 1, output: 2}
                    route: [{provider: sim, model: switchboard-demo}]
                plans:
                  pro: {models: [sim-chat], rpm: 60, daily_tokens: 100000}
                """);
        config = file.toString();
    }

    private CliRun run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--config";
        all[1] = config;
        System.arraycopy(args, 0, all, 2, args.length);
        return CliRun.of(Map.of(Cli.HOME_VARIABLE, home.toString()), all);
    }

    @Test
    void planCreditLedgerAndUsageWorkOnTheConfiguredDatabase() {
        CliRun created = run("users", "create", "--name", "alice", "--balance-usd", "5");
        assertThat(created.exitCode()).as(created.err()).isZero();

        CliRun first = run("users", "credit", "alice", "--amount-usd", "2.5", "--idempotency-key", "topup-1");
        CliRun again = run("users", "credit", "alice", "--amount-usd", "2.5", "--idempotency-key", "topup-1");
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(Json.parse(again.out()).path("id")).isEqualTo(Json.parse(first.out()).path("id"));
        assertThat(Json.parse(again.out()).path("balance_usd").asText()).isEqualTo("7.5");

        CliRun plan = run("users", "plan", "alice", "--plan", "pro", "--expires-at", "2030-01-01T00:00:00Z");
        assertThat(plan.exitCode()).as(plan.err()).isZero();
        JsonNode user = Json.parse(plan.out());
        assertThat(user.path("plan").asText()).isEqualTo("pro");
        assertThat(user.path("plan_expires_at").asText()).isEqualTo("2030-01-01T00:00:00Z");
        CliRun unknown = run("users", "plan", "alice", "--plan", "gold");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("plan: expected payg or a configured plan [pro]");
        assertThat(Json.parse(run("users", "plan", "alice", "--plan", "payg").out()).has("plan_expires_at")).isFalse();

        JsonNode ledger = Json.parse(run("users", "ledger", "alice").out()).path("data");
        assertThat(ledger).hasSize(2);
        assertThat(ledger).extracting(e -> e.path("kind").asText()).containsOnly("credit");

        CliRun usage = run("usage", "--user", "alice", "--group-by", "model");
        assertThat(usage.exitCode()).as(usage.err()).isZero();
        assertThat(Json.parse(usage.out()).path("total").path("requests").asLong()).isZero();
        CliRun bad = run("usage", "--from", "yesterday");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).contains("from: expected an ISO-8601 instant");
    }

    @Test
    void plansShowsTheConfiguredPlansWithTheirLimits() {
        CliRun plans = run("plans");
        assertThat(plans.exitCode()).as(plans.err()).isZero();
        JsonNode pro = Json.parse(plans.out()).path("plans").get(0);
        assertThat(pro.path("id").asText()).isEqualTo("pro");
        assertThat(pro.path("rpm").asLong()).isEqualTo(60);
        assertThat(pro.path("daily_tokens").asLong()).isEqualTo(100000);
        assertThat(pro.path("models").get(0).asText()).isEqualTo("sim-chat");
    }
}
