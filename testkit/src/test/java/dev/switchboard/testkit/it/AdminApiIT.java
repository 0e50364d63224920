package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.errors.UnauthorizedException;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The admin API over HTTP (docs/admin.md), with the keys it issues used through the OpenAI SDK. */
class AdminApiIT {
    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(ItSupport.CONFIG);

    private static TestGateway gateway;

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
        gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY);
    }

    private static Map<String, String> admin() {
        return ItSupport.bearer(gateway.adminKey());
    }

    @Test
    void issuedKeyIsShownOnceWorksAndStopsWorkingTheMomentItIsRevoked() {
        HttpResponse<String> user = ItSupport.post(gateway, "/admin/v1/users", admin(), "{\"name\":\"alice\",\"balance_usd\":\"5\"}");
        assertThat(user.statusCode()).isEqualTo(201);
        String userId = ItSupport.json(user.body()).path("id").asText();
        assertThat(userId).isNotBlank();

        HttpResponse<String> created = ItSupport.post(gateway, "/admin/v1/users/" + userId + "/keys", admin(), "{\"name\":\"laptop\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode issued = ItSupport.json(created.body());
        String keyId = issued.path("id").asText();
        String secret = issued.path("key").asText();
        String prefix = issued.path("prefix").asText();
        assertThat(secret).isNotBlank().startsWith(prefix);
        assertThat(prefix.length()).isLessThan(secret.length());

        OpenAIClient alice = ItSupport.client(gateway, secret);
        assertThat(alice.chat().completions().create(ItSupport.ask("chat-basic", "hi")).model()).isEqualTo("chat-basic");

        HttpResponse<String> details = ItSupport.get(gateway, "/admin/v1/users/" + userId, admin());
        assertThat(details.statusCode()).isEqualTo(200);
        assertThat(details.body()).doesNotContain(secret);
        JsonNode keys = ItSupport.json(details.body()).path("keys");
        assertThat(keys).hasSize(1);
        assertThat(keys.get(0).path("id").asText()).isEqualTo(keyId);
        assertThat(keys.get(0).path("prefix").asText()).isEqualTo(prefix);
        assertThat(keys.get(0).has("key")).isFalse();

        HttpResponse<String> revoked = ItSupport.delete(gateway, "/admin/v1/keys/" + keyId, admin());
        assertThat(revoked.statusCode()).isEqualTo(200);

        UnauthorizedException e = assertThrows(UnauthorizedException.class,
                () -> alice.chat().completions().create(ItSupport.ask("chat-basic", "hi")));
        assertThat(e.code()).contains("401");
        assertThat(ItSupport.get(gateway, "/v1/models", ItSupport.bearer(secret)).statusCode()).isEqualTo(401);
        assertThat(gateway.upstream().received()).hasSize(1); // only the call made before the revocation
    }

    @Test
    void adminApiRefusesRequestsWithoutTheAdminKey() {
        String body = "{\"name\":\"mallory\"}";

        assertThat(ItSupport.post(gateway, "/admin/v1/users", Map.of("content-type", "application/json"), body).statusCode())
                .isEqualTo(401);
        assertThat(ItSupport.post(gateway, "/admin/v1/users", ItSupport.bearer(gateway.apiKey()), body).statusCode())
                .as("a user's API key is not an admin key").isEqualTo(401);
    }
}
