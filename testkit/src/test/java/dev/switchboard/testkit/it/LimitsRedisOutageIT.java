package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RedisServer;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis stopped in the middle of a test (a {@code redis-server} of the test's own on a free port, never the
 * machine's shared one): under {@code on_store_failure: allow} requests keep being served, uncounted, and the
 * outage shows in the metrics; under {@code deny} requests of limited keys are refused with 503 and
 * {@code Retry-After}; once Redis is back, the limits hold again.
 */
class LimitsRedisOutageIT {
    private RedisServer redis;
    private TestGateway gateway;

    @BeforeEach
    void startRedis() {
        Assumptions.assumeTrue(Boolean.getBoolean("switchboard.test.redis"), "Redis tests are off");
        redis = RedisServer.start();
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private void startGateway(String policy) {
        gateway = TestGateway.start(ItSupport.oneModelConfig("lim-chat", "{input: 0, output: 0}", """
                redis: %s
                limits: {on_store_failure: %s, store_timeout: 500ms}
                """.formatted(redis.url(), policy)));
    }


    private HttpResponse<String> ask(String key) {
        return ItSupport.post(gateway, "/v1/chat/completions", ItSupport.bearer(key),
                "{\"model\": \"lim-chat\", \"max_tokens\": 20, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
    }

    private String metrics() {
        return ItSupport.get(gateway, "/metrics", Map.of()).body();
    }

    /** Sends requests until one is counted again (carries the rate-limit headers); Redis reconnects within seconds. */
    private HttpResponse<String> firstCounted(String key) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            HttpResponse<String> r = ask(key);
            if (r.headers().firstValue("x-ratelimit-limit-requests").isPresent()) {
                return r;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the limits were not counted again within 30 s of Redis coming back");
    }

    @Test
    void underAllowRequestsAreServedWhileRedisIsAwayAndLimitsHoldAgainWhenItIsBack() throws Exception {
        startGateway("allow");
        String key = ItSupport.keyWith(gateway, "\"rpm\": 3");
        for (int i = 0; i < 3; i++) {
            assertThat(ask(key).statusCode()).isEqualTo(200);
        }
        assertThat(ask(key).statusCode()).isEqualTo(429);

        redis.stop();
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> served = ask(key);
            assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
            assertThat(served.headers().firstValue("x-ratelimit-limit-requests")).isEmpty();
        }
        assertThat(metrics()).containsPattern("switchboard_limit_store_failures_total\\{policy=\"allow\"\\} [1-9]");

        redis.startAgain(); // empty: the counting starts afresh
        HttpResponse<String> counted = firstCounted(key);
        assertThat(counted.statusCode()).isEqualTo(200);
        assertThat(counted.headers().firstValue("x-ratelimit-remaining-requests")).contains("2");
        assertThat(ask(key).statusCode()).isEqualTo(200);
        assertThat(ask(key).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = ask(key);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(ItSupport.json(refused.body()).path("error").path("message").asText()).contains("the key's rpm (3 requests per minute)");
    }

    @Test
    void underDenyRequestsOfLimitedKeysAre503WhileRedisIsAway() throws Exception {
        startGateway("deny");
        String key = ItSupport.keyWith(gateway, "\"rpm\": 3");
        assertThat(ask(key).statusCode()).isEqualTo(200);

        redis.stop();
        HttpResponse<String> refused = ask(key);
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("retry-after")).contains("1");
        assertThat(ItSupport.json(refused.body()).path("error").path("message").asText()).contains("Rate limits cannot be checked");
        // a key without limits never needs Redis
        assertThat(ask(gateway.apiKey()).statusCode()).isEqualTo(200);
        assertThat(metrics()).containsPattern("switchboard_limit_store_failures_total\\{policy=\"deny\"\\} [1-9]");

        redis.startAgain();
        assertThat(firstCounted(key).statusCode()).isEqualTo(200);
    }
}
