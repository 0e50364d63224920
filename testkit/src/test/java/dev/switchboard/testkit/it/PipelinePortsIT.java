package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.BREAKER_OFF;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.pipeline.AdmissionRequest;
import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.engine.pipeline.RequestOutcome;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every chat endpoint, plain and streamed, goes through the pipeline's admission and settlement exactly
 * once per request, also when the answer came after a failover inside the pool or from a caller
 * fallback; the settlement names the model that answered. {@code count_tokens} is admitted and settled
 * with nothing billable.
 */
class PipelinePortsIT {
    private static final String CONFIG = TestGateway.DEFAULT_HEADER
            // its failing target is asked on purpose, call after call
            + providers(openAiProvider("fake", ItSupport.UPSTREAM_KEY) + BREAKER_OFF)
            + models(
                    model("ports-pool").pricing("{input: 1, output: 2}").route("fake/up-first-fail503", "fake/up-second"),
                    model("ports-down").pricing("{input: 1, output: 2}").route("fake/up-down-fail503"),
                    model("ports-backup").pricing("{input: 1, output: 2}").route("fake/up-backup"));

    private static final List<AdmissionRequest> ADMITTED = Collections.synchronizedList(new ArrayList<>());
    private static final List<Admitted> GRANTED = Collections.synchronizedList(new ArrayList<>());
    private static final List<Map.Entry<Admitted, RequestOutcome>> SETTLED = Collections.synchronizedList(new ArrayList<>());

    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(CONFIG, new GatewayApp.PortDecorators(
                admission -> request -> {
                    ADMITTED.add(request);
                    Admitted granted = admission.admit(request);
                    GRANTED.add(granted);
                    return granted;
                },
                settlement -> (admitted, outcome) -> {
                    SETTLED.add(Map.entry(admitted, outcome));
                    settlement.settle(admitted, outcome);
                }));
        gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY);
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void clear() {
        ADMITTED.clear();
        GRANTED.clear();
        SETTLED.clear();
        gateway.upstream().reset();
        gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY);
    }

    /** One request of a client format: where it goes and its body, for a model and optional caller fallbacks. */
    record Call(String name, String path, Map<String, String> headers, String body, boolean streamed, String answering) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Map<String, String> headers(String... extra) {
        Map<String, String> h = new HashMap<>(ItSupport.bearer(gateway.apiKey()));
        for (int i = 0; i < extra.length; i += 2) {
            h.put(extra[i], extra[i + 1]);
        }
        return h;
    }

    static Stream<Arguments> calls() {
        return Stream.of(
                chat("chat-completions, pool failover", "ports-pool", "", false, "ports-pool"),
                chat("chat-completions streamed, pool failover", "ports-pool", "", true, "ports-pool"),
                chat("chat-completions, caller fallback", "ports-down", ", \"models\": [\"ports-backup\"]", false, "ports-backup"),
                chat("chat-completions streamed, caller fallback", "ports-down", ", \"models\": [\"ports-backup\"]", true,
                        "ports-backup"),
                messages("messages, pool failover", "ports-pool", "", false, "ports-pool"),
                messages("messages streamed, caller fallback", "ports-down", ", \"fallbacks\": [{\"model\": \"ports-backup\"}]",
                        true, "ports-backup"),
                Arguments.of(new Call("content-parts, pool failover", "/v1beta/models/ports-pool:generateContent",
                        Map.of(), "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"hi\"}]}]}", false, "ports-pool")),
                Arguments.of(new Call("content-parts streamed, pool failover",
                        "/v1beta/models/ports-pool:streamGenerateContent?alt=sse", Map.of(),
                        "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"hi\"}]}]}", true, "ports-pool")),
                Arguments.of(new Call("responses, pool failover", "/v1/responses", Map.of(),
                        "{\"model\": \"ports-pool\", \"input\": \"hi\"}", false, "ports-pool")),
                Arguments.of(new Call("responses streamed, pool failover", "/v1/responses", Map.of(),
                        "{\"model\": \"ports-pool\", \"input\": \"hi\", \"stream\": true}", true, "ports-pool")));
    }

    private static Arguments chat(String name, String model, String fallbacks, boolean stream, String answering) {
        return Arguments.of(new Call(name, "/v1/chat/completions", Map.of(), "{\"model\": \"" + model
                + "\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"stream\": " + stream + fallbacks + "}",
                stream, answering));
    }

    private static Arguments messages(String name, String model, String fallbacks, boolean stream, String answering) {
        return Arguments.of(new Call(name, "/v1/messages", Map.of("anthropic-version", "2023-06-01"), "{\"model\": \""
                + model + "\", \"max_tokens\": 100, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"stream\": "
                + stream + fallbacks + "}", stream, answering));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void everyRequestIsAdmittedOnceAndSettledOnceForTheModelThatAnswered(Call call) {
        Map<String, String> h = headers();
        h.putAll(call.headers());
        HttpResponse<String> response = ItSupport.post(gateway, call.path(), h, call.body());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        if (!call.streamed()) {
            assertThat(response.body()).contains("Hello from up-");
        }
        assertThat(ItSupport.upstreamModels(gateway)).as("the failover happened").startsWith(
                call.answering().equals("ports-pool") ? "up-first-fail503" : "up-down-fail503");
        assertThat(ADMITTED).hasSize(1);
        assertThat(SETTLED).hasSize(1);
        Map.Entry<Admitted, RequestOutcome> settled = SETTLED.getFirst();
        assertThat(settled.getKey()).as("settled with what admission granted").isSameAs(GRANTED.getFirst());
        RequestOutcome outcome = settled.getValue();
        assertThat(outcome.requestId()).isEqualTo(ADMITTED.getFirst().requestId())
                .isEqualTo(response.headers().firstValue("x-request-id").orElseThrow());
        assertThat(outcome.ending()).isEqualTo(RequestOutcome.Ending.COMPLETED);
        assertThat(outcome.streamed()).isEqualTo(call.streamed());
        assertThat(outcome.answered().map(RequestOutcome.Answered::modelId)).contains(call.answering());
        assertThat(outcome.billable()).isTrue();
        assertThat(outcome.usage().outputTokens()).isPositive();
        assertThat(outcome.caller().userId()).isEqualTo(gateway.userId());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void aRequestNobodyAnswersIsSettledOnceWithNothingBillable(Call call) {
        Map<String, String> h = headers();
        h.putAll(call.headers());
        String body = call.body().replace("ports-pool", "ports-down").replace(", \"models\": [\"ports-backup\"]", "")
                .replace(", \"fallbacks\": [{\"model\": \"ports-backup\"}]", "");
        HttpResponse<String> response = ItSupport.post(gateway, call.path().replace("ports-pool", "ports-down"), h, body);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(ADMITTED).hasSize(1);
        assertThat(SETTLED).hasSize(1);
        RequestOutcome outcome = SETTLED.getFirst().getValue();
        assertThat(outcome.ending()).isEqualTo(RequestOutcome.Ending.FAILED);
        assertThat(outcome.answered()).isEmpty();
        assertThat(outcome.billable()).isFalse();
    }

    @org.junit.jupiter.api.Test
    void countTokensIsAdmittedAndSettledOnceWithNothingBillable() {
        HttpResponse<String> response = ItSupport.post(gateway, "/v1/messages/count_tokens", headers("anthropic-version", "2023-06-01"),
                "{\"model\": \"ports-pool\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(ADMITTED).singleElement().satisfies(a -> assertThat(a.purpose()).isEqualTo(AdmissionRequest.Purpose.COUNT_TOKENS));
        assertThat(SETTLED).singleElement().satisfies(s -> {
            assertThat(s.getValue().ending()).isEqualTo(RequestOutcome.Ending.COUNTED);
            assertThat(s.getValue().billable()).isFalse();
        });
        assertThat(gateway.upstream().received()).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aRequestRefusedBeforeAdmissionIsNeitherAdmittedNorSettled() {
        HttpResponse<String> response = ItSupport.post(gateway, "/v1/chat/completions", headers(),
                "{\"model\": \"no-such-model\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(ADMITTED).isEmpty();
        assertThat(SETTLED).isEmpty();
    }
}
