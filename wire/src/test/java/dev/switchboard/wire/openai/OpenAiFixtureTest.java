package dev.switchboard.wire.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.sse.SseParser;
import dev.switchboard.wire.testing.CanonicalJson;
import dev.switchboard.wire.testing.Golden;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden fixtures of the chat-completions format, {@code fixtures/openai/<case>/}. Each case holds the
 * inputs it needs and the goldens derived from them, along three chains:
 * <pre>
 *   client-request.json  -> canonical-request.json -> upstream-request.json     (or client-error.json)
 *   upstream-response.json -> canonical-response.json -> client-response.json
 *   upstream-stream.sse  -> canonical-events.jsonl -> client-stream.sse
 *   upstream-error.(json|txt) -> canonical-error.json -> client-error.json
 * </pre>
 * A chain may also start at its canonical file. {@code case.json} optionally sets {@code upstreamModel},
 * {@code created}, {@code upstreamStatus} and upstream {@code options}. Run with
 * {@code -Dfixtures.update=true} to rewrite the goldens, then review the diff.
 */
class OpenAiFixtureTest {
    private static final long DEFAULT_CREATED = 1_700_000_000L;

    static Stream<Arguments> cases() {
        return Golden.cases("openai").stream().map(p -> Arguments.of(Named.of(p.getFileName().toString(), p)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fixture(Path dir) {
        JsonNode cfg = Files.exists(dir.resolve("case.json")) ? Golden.readJson(dir.resolve("case.json")) : Json.object();
        long created = cfg.path("created").asLong(DEFAULT_CREATED);
        boolean ran = requestChain(dir, cfg);
        ran |= responseChain(dir, created);
        ran |= streamChain(dir, created);
        ran |= errorChain(dir, cfg);
        assertThat(ran).as("case %s has no input file", dir.getFileName()).isTrue();
    }

    private static boolean requestChain(Path dir, JsonNode cfg) {
        ChatRequest canonical;
        if (Files.exists(dir.resolve("client-request.json"))) {
            try {
                canonical = OpenAi.fromClient(Golden.readJson(dir.resolve("client-request.json")));
            } catch (GatewayException e) {
                assertThat(dir.resolve("canonical-request.json")).as("request was expected to be valid").doesNotExist();
                Golden.json(dir.resolve("client-error.json"), OpenAi.errorBody(e.error()));
                return true;
            }
            JsonNode tree = CanonicalJson.tree(canonical);
            assertThat(CanonicalJson.request(tree)).as("canonical codec is lossless").isEqualTo(canonical);
            Golden.json(dir.resolve("canonical-request.json"), tree);
        } else if (Files.exists(dir.resolve("canonical-request.json"))) {
            canonical = CanonicalJson.request(Golden.readJson(dir.resolve("canonical-request.json")));
        } else {
            return false;
        }
        String model = cfg.path("upstreamModel").asText("upstream-model");
        Golden.json(dir.resolve("upstream-request.json"),
                OpenAi.toUpstream(canonical, model, canonical.stream(), options(cfg.path("options"))));
        return true;
    }

    private static boolean responseChain(Path dir, long created) {
        ChatResponse canonical;
        if (Files.exists(dir.resolve("upstream-response.json"))) {
            canonical = OpenAi.fromUpstream(Golden.readJson(dir.resolve("upstream-response.json")));
            JsonNode tree = CanonicalJson.tree(canonical);
            assertThat(CanonicalJson.response(tree)).as("canonical codec is lossless").isEqualTo(canonical);
            Golden.json(dir.resolve("canonical-response.json"), tree);
        } else if (Files.exists(dir.resolve("canonical-response.json"))) {
            canonical = CanonicalJson.response(Golden.readJson(dir.resolve("canonical-response.json")));
        } else {
            return false;
        }
        Golden.json(dir.resolve("client-response.json"), OpenAi.toClient(canonical, created));
        return true;
    }

    private static boolean streamChain(Path dir, long created) {
        List<StreamEvent> events;
        if (Files.exists(dir.resolve("upstream-stream.sse"))) {
            events = parseUpstream(Golden.read(dir.resolve("upstream-stream.sse")).getBytes(StandardCharsets.UTF_8), 7);
            Golden.jsonl(dir.resolve("canonical-events.jsonl"), events.stream().map(CanonicalJson::compact).toList());
        } else if (Files.exists(dir.resolve("canonical-events.jsonl"))) {
            events = Golden.read(dir.resolve("canonical-events.jsonl")).lines().filter(l -> !l.isBlank())
                    .map(l -> CanonicalJson.event(Json.parse(l))).toList();
        } else {
            return false;
        }
        OpenAiClientStreamWriter writer = new OpenAiClientStreamWriter(created);
        StringBuilder sse = new StringBuilder();
        events.forEach(e -> sse.append(writer.write(e)));
        Golden.sse(dir.resolve("client-stream.sse"), sse.toString());
        return true;
    }

    private static boolean errorChain(Path dir, JsonNode cfg) {
        GatewayError error;
        Path json = dir.resolve("upstream-error.json");
        Path txt = dir.resolve("upstream-error.txt");
        if (Files.exists(json) || Files.exists(txt)) {
            byte[] body = Golden.read(Files.exists(json) ? json : txt).getBytes(StandardCharsets.UTF_8);
            error = OpenAi.errorFromUpstream(cfg.path("upstreamStatus").asInt(500), body);
            Golden.json(dir.resolve("canonical-error.json"), CanonicalJson.tree(error));
        } else if (Files.exists(dir.resolve("canonical-error.json"))) {
            error = CanonicalJson.error(Golden.readJson(dir.resolve("canonical-error.json")));
        } else {
            return false;
        }
        Golden.json(dir.resolve("client-error.json"), OpenAi.errorBody(error));
        return true;
    }

    /** Feeds the body in small chunks (to exercise the incremental parsers) and ends it like the engine would. */
    static List<StreamEvent> parseUpstream(byte[] body, int chunk) {
        SseParser sse = new SseParser();
        OpenAiUpstreamStreamParser parser = new OpenAiUpstreamStreamParser();
        List<StreamEvent> out = new ArrayList<>();
        for (int i = 0; i < body.length; i += chunk) {
            for (SseEvent e : sse.feed(java.util.Arrays.copyOfRange(body, i, Math.min(body.length, i + chunk)))) {
                out.addAll(parser.onData(e.data()));
            }
        }
        for (SseEvent e : sse.finish()) {
            out.addAll(parser.onData(e.data()));
        }
        out.addAll(parser.onEnd());
        return out;
    }

    static OpenAiUpstreamOptions options(JsonNode o) {
        OpenAiUpstreamOptions d = OpenAiUpstreamOptions.DEFAULT;
        if (!o.isObject()) {
            return d;
        }
        return new OpenAiUpstreamOptions(
                OpenAiUpstreamOptions.MaxTokensField.valueOf(o.path("maxTokensField").asText(d.maxTokensField().name())),
                o.path("sendTopK").asBoolean(d.sendTopK()),
                o.path("echoReasoning").asBoolean(d.echoReasoning()),
                o.path("echoGeminiThoughtSignatures").asBoolean(d.echoGeminiThoughtSignatures()));
    }

    // ---- validation table: fixtures/openai-validation.json -------------------------------------------

    static Stream<Arguments> invalidRequests() {
        JsonNode table = Golden.readJson(Golden.root().resolve("openai-validation.json"));
        List<Arguments> out = new ArrayList<>();
        for (JsonNode row : table.path("cases")) {
            out.add(Arguments.of(Named.of(row.path("name").asText(), row)));
        }
        return out.stream();
    }

    /**
     * Each row: {@code patch} (merged over a minimal valid body; a null value removes the field) or a
     * {@code raw} body, the expected {@code param} (null for none) and optionally a {@code message}
     * fragment and {@code status} (400 by default).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidRequests")
    void invalidRequest(JsonNode row) {
        JsonNode table = Golden.readJson(Golden.root().resolve("openai-validation.json"));
        byte[] body;
        if (row.has("raw")) {
            body = row.path("raw").asText().getBytes(StandardCharsets.UTF_8);
        } else {
            ObjectNode b = table.path("base").deepCopy();
            row.path("patch").properties().forEach(e -> {
                if (e.getValue().isNull()) {
                    b.remove(e.getKey());
                } else {
                    b.set(e.getKey(), e.getValue());
                }
            });
            body = Json.writeBytes(b);
        }
        assertThatThrownBy(() -> OpenAi.fromClient(body))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    GatewayError err = e.error();
                    assertThat(err.status()).isEqualTo(row.path("status").asInt(400));
                    assertThat(err.retryable()).isFalse();
                    JsonNode param = row.path("param");
                    if (param.isNull()) {
                        assertThat(err.param()).isEmpty();
                    } else {
                        assertThat(err.param()).contains(param.asText());
                    }
                    if (row.has("message")) {
                        assertThat(err.message()).contains(row.path("message").asText());
                    }
                    JsonNode envelope = OpenAi.errorBody(err).path("error");
                    assertThat(envelope.path("code").asText()).isEqualTo(Integer.toString(err.status()));
                    assertThat(envelope.path("param")).isEqualTo(param.isNull() ? Json.MAPPER.nullNode()
                            : Json.MAPPER.getNodeFactory().textNode(param.asText()));
                });
    }

    @org.junit.jupiter.api.Test
    void theBaseOfTheValidationTableIsValid() {
        JsonNode table = Golden.readJson(Golden.root().resolve("openai-validation.json"));
        if (OpenAi.fromClient(table.path("base")) == null) {
            fail("base must parse");
        }
    }
}
