package dev.switchboard.testkit.it.ops;

import static dev.switchboard.testkit.GatewayConfigSupport.SLOWER;
import static dev.switchboard.testkit.GatewayConfigSupport.header;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.server.trace.Tracing;
import dev.switchboard.testkit.FakeUpstream;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * OpenTelemetry tracing end to end, read with the SDK's in-memory exporter: one SERVER span per request, the child
 * of the caller's {@code traceparent}; one CLIENT span per upstream attempt, the child of the server span, with the
 * GenAI attributes; the attempt's trace context reaches the provider in {@code traceparent}/{@code tracestate}; a
 * failed attempt is its own span with {@code error.type}; no key, prompt or answer in any attribute. And the
 * configured OTLP/HTTP exporter really posts spans to a receiver on loopback.
 */
class TracingIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UPSTREAM_KEY = "sk-upstream-trace-0123456789abcdef";
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String PROMPT = "the secret plan is purple-elephant-42";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private FakeUpstream upstream;

    private String config(String extra) throws Exception {
        upstream = FakeUpstream.start();
        opened.add(upstream);
        return header("sqlite:" + Files.createTempDirectory("switchboard-trace-it").resolve("t.db"))
                + providers(provider("fake", "openai", upstream.openAiBaseUrl(), SLOWER, UPSTREAM_KEY))
                + models(model("traced").pricing("{input: 1, output: 2}").route("fake/up-first-fail503", "fake/up-second"))
                + extra;
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
    }

    /** A gateway of the test config exporting its spans into {@code spans}, closed after the test. */
    private GatewayApp tracedInto(InMemorySpanExporter spans) throws Exception {
        GatewayApp app = GatewayApp.start(ConfigLoader.parse(config(""), "tracing-it", Map.of()), 0,
                Tracing.exportingTo(SimpleSpanProcessor.create(spans), "switchboard-it"));
        opened.add(app);
        return app;
    }

    @Test
    void serverAndAttemptSpansCarryTheGenAiAttributesAndTheTraceContextReachesTheProvider() throws Exception {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        GatewayApp app = tracedInto(spans);
        String key = apiKey(app);
        // a server span ends after its response is sent: wait for the two admin requests' spans before the reset
        awaitSpans(spans, 2);

        for (boolean stream : new boolean[] {false, true}) {
            spans.reset();
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/v1/chat/completions"))
                    .header("authorization", "Bearer " + key).header("content-type", "application/json")
                    .header("traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01").header("tracestate", "vendor=abc")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"traced\",\"max_tokens\":77,\"stream\":" + stream
                            + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + PROMPT + "\"}]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

            List<SpanData> ended = awaitSpans(spans, 3);
            SpanData server = only(ended, SpanKind.SERVER);
            assertThat(server.getName()).isEqualTo("POST /v1/chat/completions");
            assertThat(server.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(server.getParentSpanId()).isEqualTo(CALLER_SPAN);
            assertThat(attr(server, "http.request.method")).isEqualTo("POST");
            assertThat(attr(server, "http.route")).isEqualTo("/v1/chat/completions");
            assertThat(server.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(200L);
            assertThat(attr(server, "gen_ai.operation.name")).isEqualTo("chat");
            assertThat(attr(server, "gen_ai.request.model")).isEqualTo("traced");
            assertThat(attr(server, "gen_ai.response.model")).isEqualTo("traced");
            assertThat(server.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens"))).isPositive();
            assertThat(server.getAttributes().get(AttributeKey.longKey("gen_ai.usage.output_tokens"))).isPositive();
            assertThat(server.getResource().getAttribute(AttributeKey.stringKey("service.name"))).isEqualTo("switchboard-it");

            List<SpanData> attempts = ended.stream().filter(s -> s.getKind() == SpanKind.CLIENT)
                    .sorted(java.util.Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
            assertThat(attempts).as("one span per attempt: the failed one, then the answer").hasSize(2);
            for (SpanData a : attempts) {
                assertThat(a.getTraceId()).isEqualTo(TRACE_ID);
                assertThat(a.getParentSpanId()).isEqualTo(server.getSpanId());
                assertThat(attr(a, "gen_ai.operation.name")).isEqualTo("chat");
                assertThat(attr(a, "gen_ai.provider.name")).isEqualTo("openai");
                assertThat(attr(a, "gen_ai.system")).isEqualTo("openai");
                assertThat(a.getAttributes().get(AttributeKey.longKey("gen_ai.request.max_tokens"))).isEqualTo(77L);
                assertThat(attr(a, "server.address")).isEqualTo("127.0.0.1");
            }
            SpanData failed = attempts.get(0);
            assertThat(failed.getName()).isEqualTo("chat up-first-fail503");
            assertThat(attr(failed, "error.type")).isEqualTo("503");
            assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            SpanData answered = attempts.get(1);
            assertThat(attr(answered, "gen_ai.request.model")).isEqualTo("up-second");
            assertThat(attr(answered, "gen_ai.response.model")).isNotEmpty();
            assertThat(answered.getAttributes().get(AttributeKey.longKey("gen_ai.usage.output_tokens"))).isPositive();
            assertThat(answered.getAttributes().get(AttributeKey.stringKey("error.type"))).isNull();

            // each attempt sent its own span's context to the provider, with the caller's tracestate
            List<RecordedRequest> sent = upstream.received();
            RecordedRequest last = sent.get(sent.size() - 1);
            assertThat(last.header("traceparent")).hasValue("00-" + TRACE_ID + "-" + answered.getSpanId() + "-01");
            assertThat(last.header("tracestate")).hasValue("vendor=abc");
            RecordedRequest first = sent.get(sent.size() - 2);
            assertThat(first.header("traceparent")).hasValue("00-" + TRACE_ID + "-" + failed.getSpanId() + "-01");

            String answer = JSON.readTree(stream ? "{}" : r.body()).path("choices").path(0).path("message").path("content")
                    .asText("Hello from");
            for (SpanData s : ended) {
                String all = s.getAttributes().asMap().values().toString() + s.getName();
                assertThat(all).doesNotContain(key).doesNotContain(UPSTREAM_KEY).doesNotContain(TestGateway.ADMIN_KEY)
                        .doesNotContain("purple-elephant").doesNotContain(answer);
            }
        }
    }

    @Test
    void withoutAParentTheServerSpanStartsATraceAndRefusalsAreMarked() throws Exception {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        GatewayApp app = tracedInto(spans);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/v1/chat/completions"))
                .header("authorization", "Bearer sk-sb-not-a-real-key-at-all-0123456789abcdefghijklmno")
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"traced\",\"messages\":[]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(401);
        SpanData server = only(awaitSpans(spans, 1), SpanKind.SERVER);
        assertThat(server.getParentSpanContext().isValid()).isFalse();
        assertThat(server.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(401L);
        assertThat(attr(server, "error.type")).isNotEmpty();
        assertThat(server.getAttributes().asMap().values().toString()).doesNotContain("sk-sb-not-a-real-key");
        // probes are not traced
        HTTP.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/ready")).build(), HttpResponse.BodyHandlers.discarding());
        assertThat(spans.getFinishedSpanItems()).hasSize(1);
    }

    @Test
    void theConfiguredOtlpHttpExporterPostsSpansToTheReceiver() throws Exception {
        List<byte[]> bodies = new CopyOnWriteArrayList<>();
        List<String> types = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/v1/traces", exchange -> {
            try (exchange) {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                exchange.getRequestBody().transferTo(body);
                bodies.add(body.toByteArray());
                types.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("content-type"));
                exchange.sendResponseHeaders(200, -1);
            }
        });
        receiver.start();
        opened.add(() -> receiver.stop(0));
        String endpoint = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/v1/traces";
        GatewayApp app = GatewayApp.start(ConfigLoader.parse(config("tracing: {otlp_endpoint: " + endpoint
                + ", service_name: sb-otlp-it}\n"), "tracing-it", Map.of()), 0);
        String key = apiKey(app);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/v1/chat/completions"))
                .header("authorization", "Bearer " + key).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"traced\",\"messages\":[{\"role\":\"user\",\"content\":\""
                        + PROMPT + "\"}]}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        app.close(); // flushes the batch

        assertThat(types).isNotEmpty().allMatch(t -> t.equals("POST application/x-protobuf"));
        String all = bodies.stream().map(b -> new String(b, StandardCharsets.ISO_8859_1)).reduce("", String::concat);
        assertThat(all).contains("sb-otlp-it").contains("POST /v1/chat/completions").contains("chat up-second")
                .contains("gen_ai.request.model").doesNotContain(key).doesNotContain(UPSTREAM_KEY)
                .doesNotContain("purple-elephant");
    }

    private static String apiKey(GatewayApp app) throws Exception {
        JsonNode user = JSON.readTree(post(app, "/admin/v1/users", "{\"name\":\"tracer\",\"balance_usd\":\"10\"}"));
        return JSON.readTree(post(app, "/admin/v1/users/" + user.path("id").asText() + "/keys", "{}")).path("key").asText();
    }

    private static String post(GatewayApp app, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + path))
                .header("authorization", "Bearer " + TestGateway.ADMIN_KEY).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The spans ended so far, once there are at least {@code n} (the server span ends just after the response). */
    private static List<SpanData> awaitSpans(InMemorySpanExporter spans, int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (spans.getFinishedSpanItems().size() < n && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        return spans.getFinishedSpanItems();
    }

    private static SpanData only(List<SpanData> spans, SpanKind kind) {
        List<SpanData> of = spans.stream().filter(s -> s.getKind() == kind).toList();
        assertThat(of).as("%s spans in %s", kind, spans).hasSize(1);
        return of.getFirst();
    }

    private static String attr(SpanData span, String name) {
        return span.getAttributes().get(AttributeKey.stringKey(name));
    }
}
