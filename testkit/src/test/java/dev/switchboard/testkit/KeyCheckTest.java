package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.chat;
import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class KeyCheckTest extends FakeUpstreamSupport {
    private final TestClient client = new TestClient(upstream);

    private HttpResponse<String> callWith(String authorization) throws Exception {
        var builder = client.request("/v1/chat/completions", chat("fake-model", "hi").toString());
        if (!authorization.isEmpty()) {
            builder.header("Authorization", authorization);
        }
        return client.send(builder.build());
    }

    @Test
    void anyKeyPassesUntilKeysAreRequired() throws Exception {
        assertThat(callWith("").statusCode()).isEqualTo(200);
        assertThat(callWith("Bearer whatever").statusCode()).isEqualTo(200);
    }

    @Test
    void requiredKeysRejectMissingAndWrongKeysWith401Envelope() throws Exception {
        upstream.requireKey("sk-up-1", "sk-up-2");

        for (String authorization : new String[] {"", "Bearer sk-wrong", "sk-up-1", "Basic sk-up-1"}) {
            HttpResponse<String> response = callWith(authorization);
            assertThat(response.statusCode()).as(authorization).isEqualTo(401);
            assertThat(json(response.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
            assertThat(json(response.body()).at("/error/code").asText()).isEqualTo("invalid_api_key");
            assertThat(response.body()).doesNotContain("sk-");
        }
        assertThat(callWith("Bearer sk-up-1").statusCode()).isEqualTo(200);
        assertThat(callWith("bearer sk-up-2").statusCode()).isEqualTo(200);
    }

    @Test
    void requireKeyAddsToTheAcceptedKeys() throws Exception {
        upstream.requireKey("sk-up-1").requireKey("sk-up-3");

        assertThat(callWith("Bearer sk-up-1").statusCode()).isEqualTo(200);
        assertThat(callWith("Bearer sk-up-3").statusCode()).isEqualTo(200);
    }

    @Test
    void keyStatusAnswersThatKeyWithItsStatus() throws Exception {
        upstream.requireKey("sk-up-1").keyStatus("sk-bad", 429).keyStatus("sk-revoked", 403);

        HttpResponse<String> limited = callWith("Bearer sk-bad");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after")).hasValue("1");
        assertThat(json(limited.body()).at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(callWith("Bearer sk-revoked").statusCode()).isEqualTo(403);
        assertThat(callWith("Bearer sk-up-1").statusCode()).isEqualTo(200);
        assertThat(upstream.received()).hasSize(3);
    }

    @Test
    void keyStatusOverridesAnAcceptedKey() throws Exception {
        upstream.requireKey("sk-up-1").keyStatus("sk-up-1", 500);

        assertThat(callWith("Bearer sk-up-1").statusCode()).isEqualTo(500);
    }

    @Test
    void modelListNeedsTheKeyToo() throws Exception {
        upstream.requireKey("sk-up-1");
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(upstream.openAiBaseUrl() + "/models"));

        assertThat(client.send(request.build()).statusCode()).isEqualTo(401);
        assertThat(client.send(request.header("authorization", "Bearer sk-up-1").build()).statusCode()).isEqualTo(200);
    }
}
