package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.billing.Balance;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Plans end to end: a user put on a plan ({@code PUT /admin/v1/users/{id}/plan}) pays nothing for the models it
 * covers (usage still recorded), pays from the balance for pay-as-you-go ones, is denied (403) a plan-only model
 * of another plan; without an active plan (none, or expired) a plan-only model needs a subscription (402); fallbacks
 * the caller may not use are skipped before any upstream call; {@code GET /v1/models} says which plans cover a model.
 * Credits with an idempotency key are written once, and bad admin input is a 400 naming the field.
 */
class PlansIT {
    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(openAiProvider("gpt", ItSupport.UPSTREAM_KEY))
            + models(
                    model("included").pricing("{input: 2, output: 8}").route("gpt/up-included"),
                    model("metered").pricing("{input: 2, output: 8}").route("gpt/up-metered"),
                    model("pro-only").pricing("{input: 2, output: 8}").with("plans: [pro]", "payg: false").route("gpt/up-pro-only"),
                    model("broken").pricing("{input: 2, output: 8}").route("gpt/up-broken-fail503"))
            + """
            plans:
              pro: {models: [included], rpm: 100, daily_tokens: 1000000}
              team: {}
            """;

    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = ItSupport.openAiGateway(CONFIG);

    private static TestGateway gateway() {
        return GATEWAY.gateway();
    }

    private record Account(String id, String key) {
    }

    private static Account account(String name, String balance) {
        AdminService admin = gateway().app().accounts().admin();
        User u = admin.createUser(new AdminService.CreateUser(Optional.of(name), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of(balance)));
        return new Account(u.id(), admin.createKey(u.id(), AdminService.CreateKey.defaults()).secret());
    }

    private static HttpResponse<String> setPlan(String userId, String body) {
        return ItSupport.put(gateway(), "/admin/v1/users/" + userId + "/plan", ItSupport.bearer(gateway().adminKey()), body);
    }

    private static HttpResponse<String> chat(Account a, String model, String extra) {
        return ItSupport.post(gateway(), "/v1/chat/completions", ItSupport.bearer(a.key()), "{\"model\": \"" + model
                + "\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]" + extra + "}");
    }

    private static Balance balance(Account a) {
        return gateway().app().balances().balance(a.id()).orElseThrow();
    }

    /** Key lookups are cached for a second; a plan change is seen by the next lookup after that. */
    private static void letCachesExpire() throws InterruptedException {
        Thread.sleep(dev.switchboard.engine.account.ApiKeys.CACHE_TTL.toMillis() + 100);
    }

    @Test
    void aPlanCoversItsModelsAtNoChargeAndMeteredOnesComeFromTheBalance() throws Exception {
        Account pro = account("pro-user", "1");
        HttpResponse<String> put = setPlan(pro.id(), "{\"plan\": \"pro\", \"expires_at\": \"2099-01-01T00:00:00Z\"}");
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        assertThat(ItSupport.json(put.body()).path("plan_expires_at").asText()).isEqualTo("2099-01-01T00:00:00Z");
        letCachesExpire();

        assertThat(chat(pro, "included", "").statusCode()).isEqualTo(200);
        assertThat(balance(pro)).isEqualTo(new Balance(1_000_000_000L, 0));
        JsonNode record = ItSupport.json(ItSupport.get(gateway(), "/v1/usage", ItSupport.bearer(pro.key())).body()).path("data").get(0);
        assertThat(record.path("model").asText()).isEqualTo("included");
        assertThat(record.path("plan").asText()).isEqualTo("pro");
        assertThat(record.path("charged_usd").asText()).isEqualTo("0");
        assertThat(record.path("cost_usd").asText()).isNotEqualTo("0");
        assertThat(record.path("output_tokens").asLong()).isPositive();

        assertThat(chat(pro, "pro-only", "").statusCode()).isEqualTo(200);
        assertThat(balance(pro).balanceNanos()).isEqualTo(1_000_000_000L);
        assertThat(chat(pro, "metered", "").statusCode()).isEqualTo(200);
        assertThat(balance(pro).balanceNanos()).isLessThan(1_000_000_000L);

        JsonNode credits = ItSupport.json(ItSupport.get(gateway(), "/v1/credits", ItSupport.bearer(pro.key())).body()).path("data");
        assertThat(credits.path("plan").asText()).isEqualTo("pro");
        assertThat(credits.path("plan_expires_at").asText()).isEqualTo("2099-01-01T00:00:00Z");
    }

    @Test
    void aPlanOnlyModelIsDeniedToAnotherPlanAndNeedsASubscriptionWithoutOneOrAfterItExpired() throws Exception {
        Account team = account("team-user", "50");
        Account payg = account("payg-user", "50");
        Account lapsed = account("lapsed-user", "50");
        setPlan(team.id(), "{\"plan\": \"team\"}");
        setPlan(lapsed.id(), "{\"plan\": \"pro\", \"expires_at\": \"2020-01-01T00:00:00Z\"}");
        letCachesExpire();

        HttpResponse<String> denied = chat(team, "pro-only", "");
        HttpResponse<String> needs = chat(payg, "pro-only", "");
        HttpResponse<String> expired = chat(lapsed, "pro-only", "");

        assertThat(denied.statusCode()).isEqualTo(403);
        assertThat(ItSupport.json(denied.body()).path("error").path("type").asText()).isEqualTo("model_access_denied");
        for (HttpResponse<String> r : java.util.List.of(needs, expired)) {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(402);
            JsonNode error = ItSupport.json(r.body()).path("error");
            assertThat(error.path("type").asText()).isEqualTo("insufficient_quota");
            assertThat(error.path("code").asText()).isEqualTo("402");
            assertThat(error.path("message").asText()).contains("needs an active subscription");
        }
        assertThat(gateway().upstream().received("up-pro-only")).isEmpty();
        assertThat(balance(payg)).isEqualTo(new Balance(50_000_000_000L, 0));
    }

    @Test
    void aFallbackTheCallerMayNotUseIsSkippedAndModelsListsWhatTheCallerMayUse() {
        Account payg = account("fallback-user", "5");

        HttpResponse<String> r = chat(payg, "broken", ", \"models\": [\"pro-only\", \"metered\"]");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(ItSupport.json(r.body()).path("model").asText()).isEqualTo("metered");
        assertThat(gateway().upstream().received("up-pro-only")).as("skipped, never tried").isEmpty();

        JsonNode models = ItSupport.json(ItSupport.get(gateway(), "/v1/models", ItSupport.bearer(payg.key())).body()).path("data");
        assertThat(models).extracting(m -> m.path("id").asText()).contains("metered", "included").doesNotContain("pro-only");
        JsonNode included = java.util.stream.StreamSupport.stream(models.spliterator(), false)
                .filter(m -> m.path("id").asText().equals("included")).findFirst().orElseThrow();
        assertThat(included.path("plans")).extracting(JsonNode::asText).containsExactly("pro");
        assertThat(included.path("pay_as_you_go").asBoolean()).isTrue();
    }

    @Test
    void creditsWithAnIdempotencyKeyAreWrittenOnceAndBadInputNamesTheField() {
        Account a = account("topup-user", "0");
        String credit = "{\"amount_usd\": \"12.34\", \"idempotency_key\": \"order-77\"}";
        Map<String, String> admin = ItSupport.bearer(gateway().adminKey());

        HttpResponse<String> first = ItSupport.post(gateway(), "/admin/v1/users/" + a.id() + "/credits", admin, credit);
        HttpResponse<String> again = ItSupport.post(gateway(), "/admin/v1/users/" + a.id() + "/credits", admin, credit);
        HttpResponse<String> other = ItSupport.post(gateway(), "/admin/v1/users/" + a.id() + "/credits", admin,
                "{\"amount_usd\": \"1\", \"idempotency_key\": \"order-77\"}");

        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        assertThat(ItSupport.json(again.body()).path("id")).isEqualTo(ItSupport.json(first.body()).path("id"));
        assertThat(balance(a).balanceNanos()).isEqualTo(12_340_000_000L);
        assertThat(other.statusCode()).isEqualTo(409);
        assertThat(ItSupport.json(other.body()).path("error").path("param").asText()).isEqualTo("idempotency_key");
        JsonNode ledger = ItSupport.json(ItSupport.get(gateway(), "/admin/v1/users/" + a.id() + "/ledger", admin).body());
        assertThat(ledger.path("data")).hasSize(1);

        assertThat(param(setPlan(a.id(), "{\"plan\": \"gold\"}"))).isEqualTo("plan");
        assertThat(param(setPlan(a.id(), "{\"plan\": \"pro\", \"expires_at\": \"tomorrow\"}"))).isEqualTo("expires_at");
        assertThat(param(setPlan(a.id(), "{\"plan\": \"pro\", \"colour\": \"red\"}"))).isEqualTo("colour");
        assertThat(setPlan("usr_nobody", "{\"plan\": \"pro\"}").statusCode()).isEqualTo(404);
        assertThat(param(ItSupport.get(gateway(), "/admin/v1/usage?group_by=week", admin))).isEqualTo("group_by");
        assertThat(param(ItSupport.get(gateway(), "/admin/v1/usage?from=2026-13-01", admin))).isEqualTo("from");
        assertThat(param(ItSupport.get(gateway(), "/admin/v1/usage?limit=0", admin))).isEqualTo("limit");
        assertThat(param(ItSupport.get(gateway(), "/admin/v1/users/" + a.id() + "/ledger?limit=x", admin))).isEqualTo("limit");
        assertThat(ItSupport.get(gateway(), "/admin/v1/usage", ItSupport.bearer(a.key())).statusCode()).isEqualTo(401);
    }

    private static String param(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        return ItSupport.json(r.body()).path("error").path("param").asText();
    }
}
