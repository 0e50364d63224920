package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static dev.switchboard.testkit.GatewayConfigSupport.untimedProvider;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.extend.Browser.Answer;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dashboard's session routes for the signed-in user ({@code /v1/keys}, {@code /v1/keys/playground},
 * {@code /v1/defaults}), the admin API under an admin's session, the providers' health, and the dashboard's files.
 */
class AccountRoutesIT {
    static final String PASSWORD = "correct horse battery";
    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(untimedProvider("fake", "openai", "${UPSTREAM_OPENAI}", "sk-upstream-acct-0123456789"))
            + models(model("acct-chat").limits(8000, 1000).pricing("{input: 1, output: 2}").route("fake/up-acct"));

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(CONFIG);

    private static TestGateway gateway;
    private static Browser ann;
    private static Browser ben;

    @BeforeAll
    static void users() {
        gateway = GATEWAY.gateway();
        for (String name : new String[] {"ann", "ben"}) {
            Answer a = admin("POST", "/admin/v1/users", "{\"name\":\"" + name + "\",\"password\":\"" + PASSWORD
                    + "\",\"balance_usd\":\"10\"}");
            assertThat(a.status()).as(a.body()).isEqualTo(201);
        }
        ann = signedIn("ann");
        ben = signedIn("ben");
    }

    @Test
    void aUserCreatesListsAndRevokesOnlyTheirOwnKeysAndTheSecretIsShownOnce() {
        Answer created = ann.post("/v1/keys", "{\"name\":\"laptop\",\"models\":[\"acct-chat\"],\"rpm\":60}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String secret = created.json().path("key").asText();
        String id = created.json().path("id").asText();
        assertThat(secret).startsWith("sk-sb-");
        assertThat(created.header("cache-control")).contains("no-store");

        Answer list = ann.get("/v1/keys");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body()).contains(id).contains(secret.substring(0, 12)).doesNotContain(secret);
        assertThat(ben.get("/v1/keys").body()).as("another user's list").doesNotContain(id);

        Answer chat = chat(secret);
        assertThat(chat.status()).as("the new key works").isEqualTo(200);

        assertThat(ben.delete("/v1/keys/" + id).status()).as("another user's key is not found").isEqualTo(404);
        assertThat(chat(secret).status()).as("and still works").isEqualTo(200);
        Answer revoked = ann.delete("/v1/keys/" + id);
        assertThat(revoked.status()).isEqualTo(200);
        assertThat(chat(secret).status()).as("revoked at once").isEqualTo(401);

        Answer apiKeyOnly = new Browser(gateway.baseUrl()).send("GET", "/v1/keys", Optional.empty(),
                Map.of("authorization", "Bearer " + gateway.apiKey()));
        assertThat(apiKeyOnly.status()).as("an API key cannot manage keys").isEqualTo(401);
        Answer noToken;
        try {
            noToken = ann.withoutCsrf().post("/v1/keys", "{}");
        } finally {
            ann.withCsrf();
        }
        assertThat(noToken.status()).as("a write without the CSRF token").isEqualTo(403);
        Answer badField = ann.post("/v1/keys", "{\"rpm\":\"fast\"}");
        assertThat(badField.status()).isEqualTo(400);
        assertThat(badField.json().path("error").path("param").asText()).isEqualTo("rpm");
    }

    @Test
    void aPlaygroundKeyIsShortLivedAndReplacesTheLastOne() {
        Answer first = ben.post("/v1/keys/playground", "{}");
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(first.json().path("name").asText()).isEqualTo("playground");
        assertThat(first.json().path("expires_at").asText()).isNotEmpty();
        assertThat(chat(first.json().path("key").asText()).status()).isEqualTo(200);
        Answer second = ben.post("/v1/keys/playground", "{}");
        assertThat(chat(second.json().path("key").asText()).status()).isEqualTo(200);
        assertThat(chat(first.json().path("key").asText()).status()).as("the earlier playground key is revoked").isEqualTo(401);
    }

    @Test
    void savedDefaultsOfTheSignedInUserWithErrorsNamingTheField() {
        Answer bad = ann.put("/v1/defaults/acct-chat", "{\"temperature\": 7}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("error").path("param").asText()).isEqualTo("temperature");
        Answer saved = ann.put("/v1/defaults/acct-chat", "{\"temperature\": 0.3, \"stop\": [\"END\"]}");
        assertThat(saved.status()).as(saved.body()).isEqualTo(200);
        JsonNode list = ann.get("/v1/defaults").json().path("defaults");
        assertThat(list).hasSize(1);
        assertThat(list.get(0).path("model").asText()).isEqualTo("acct-chat");
        assertThat(list.get(0).path("defaults").path("temperature").asDouble()).isEqualTo(0.3);
        assertThat(ben.get("/v1/defaults").json().path("defaults")).as("another user's").isEmpty();
        assertThat(ben.get("/v1/defaults/acct-chat").status()).isEqualTo(404);
        assertThat(ann.delete("/v1/defaults/acct-chat").json().path("deleted").asBoolean()).isTrue();
        assertThat(ann.get("/v1/defaults").json().path("defaults")).isEmpty();
    }

    @Test
    void theAdminApiTakesAnAdminsSessionWithItsTokenAndNobodyElses() {
        Browser carl = new Browser(gateway.baseUrl());
        assertThat(admin("POST", "/admin/v1/users", "{\"name\":\"carl\",\"password\":\"" + PASSWORD + "\"}").status()).isEqualTo(201);
        String carlId = carl.login("carl", PASSWORD).json().path("user").path("id").asText();
        assertThat(carl.get("/admin/v1/users").status()).as("a user's session").isEqualTo(403);
        assertThat(admin("PUT", "/admin/v1/users/" + carlId + "/role", "{\"role\":\"admin\"}").status()).isEqualTo(200);
        assertThat(carl.get("/admin/v1/users").status()).as("an admin's session").isEqualTo(200);
        Answer credit = carl.post("/admin/v1/users/" + carlId + "/credits", "{\"amount_usd\":\"1.25\",\"note\":\"test\"}");
        assertThat(credit.status()).as(credit.body()).isEqualTo(200);
        Answer noToken;
        try {
            noToken = carl.withoutCsrf().get("/admin/v1/users");
        } finally {
            carl.withCsrf();
        }
        assertThat(noToken.status()).as("an admin session without its token, even to read").isEqualTo(403);
        assertThat(new Browser(gateway.baseUrl()).get("/admin/v1/users").status()).as("nobody").isEqualTo(401);

        Answer providers = carl.get("/admin/v1/providers");
        assertThat(providers.status()).isEqualTo(200);
        JsonNode fake = providers.json().path("providers").get(0);
        assertThat(fake.path("id").asText()).isEqualTo("fake");
        assertThat(fake.path("keys").asInt()).isEqualTo(1);
        assertThat(providers.body()).doesNotContain("sk-upstream-acct");
        chat(gateway.apiKey());
        JsonNode after = carl.get("/admin/v1/providers").json().path("providers").get(0);
        assertThat(after.path("attempts").asLong()).isPositive();
        assertThat(after.path("outcomes").path("ok").asLong()).isPositive();
    }

    @Test
    void theDashboardIsServedWithAStrictPolicyAndVersionedAssets() {
        Answer shell = new Browser(gateway.baseUrl()).get("/");
        assertThat(shell.status()).isEqualTo(200);
        assertThat(shell.header("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(shell.header("content-security-policy")).hasValueSatisfying(p -> assertThat(p).contains("script-src 'self'"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("/assets/([0-9a-f]{16})/app\\.js").matcher(shell.body());
        assertThat(m.find()).as(shell.body()).isTrue();
        Answer js = new Browser(gateway.baseUrl()).get("/assets/" + m.group(1) + "/app.js");
        assertThat(js.status()).isEqualTo(200);
        assertThat(js.header("cache-control")).hasValueSatisfying(c -> assertThat(c).contains("immutable"));
        Answer page = new Browser(gateway.baseUrl()).get("/assets/" + m.group(1) + "/pages/keys.js");
        assertThat(page.status()).isEqualTo(200);
        assertThat(new Browser(gateway.baseUrl()).get("/assets/" + m.group(1) + "/nope.js").status()).isEqualTo(404);
        assertThat(new Browser(gateway.baseUrl()).get("/assets/old/app.js").header("cache-control"))
                .as("another version is revalidated").hasValue("no-cache");
        Answer again = new Browser(gateway.baseUrl()).get("/", Map.of("if-none-match", shell.header("etag").orElseThrow()));
        assertThat(again.status()).isEqualTo(304);
    }

    private static Answer chat(String key) {
        return new Browser(gateway.baseUrl()).send("POST", "/v1/chat/completions",
                Optional.of("{\"model\":\"acct-chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
                Map.of("authorization", "Bearer " + key));
    }

    private static Browser signedIn(String name) {
        return Browser.signedIn(gateway.baseUrl(), name, PASSWORD);
    }

    static Answer admin(String method, String path, String json) {
        return Browser.admin(gateway, method, path, json);
    }
}
