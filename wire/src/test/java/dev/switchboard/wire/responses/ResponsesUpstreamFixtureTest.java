package dev.switchboard.wire.responses;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.StreamAccumulator;
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
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden fixtures of the Responses format's upstream side, {@code fixtures/responses-upstream/<case>/}:
 * <pre>
 *   canonical-request.json -> upstream-request.json
 *   upstream-response.json -> canonical-response.json    (or canonical-error.json when the response failed)
 *   upstream-stream.sse    -> canonical-events.jsonl     (+ agrees with the whole answer when both exist)
 *   upstream-error.json    -> canonical-error.json
 * </pre>
 * {@code case.json} optionally sets {@code upstreamModel}, the {@code options} ({@code reasoning},
 * {@code sampling}), the {@code stop} sequences applied to answers, and {@code upstreamStatus}. Streams
 * are fed in small chunks to exercise the incremental SSE parser. Run with {@code -Dfixtures.update=true}
 * to rewrite the goldens, then review the diff. {@link ResponsesUpstreamSdkTest} checks the same files
 * against the official SDK's types.
 */
class ResponsesUpstreamFixtureTest {
    static final String DIR = "responses-upstream";

    static Stream<Arguments> cases() {
        return Golden.cases(DIR).stream().map(p -> Arguments.of(Named.of(p.getFileName().toString(), p)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fixture(Path dir) {
        JsonNode cfg = config(dir);
        boolean ran = requestChain(dir, cfg);
        ran |= responseChain(dir, cfg);
        ran |= streamChain(dir, cfg);
        ran |= errorChain(dir, cfg);
        assertThat(ran).as("case %s has no input file", dir.getFileName()).isTrue();
    }

    static JsonNode config(Path dir) {
        return Files.exists(dir.resolve("case.json")) ? Golden.readJson(dir.resolve("case.json")) : Json.object();
    }

    private static boolean requestChain(Path dir, JsonNode cfg) {
        Path file = dir.resolve("canonical-request.json");
        if (!Files.exists(file)) {
            return false;
        }
        ChatRequest canonical = CanonicalJson.request(Golden.readJson(file));
        JsonNode o = cfg.path("options");
        ResponsesUpstreamOptions options = new ResponsesUpstreamOptions(o.path("reasoning").asBoolean(true),
                o.path("sampling").asBoolean(true));
        Golden.json(dir.resolve("upstream-request.json"), Responses.toUpstream(canonical,
                cfg.path("upstreamModel").asText("upstream-model"), canonical.stream(), options));
        return true;
    }

    private static boolean responseChain(Path dir, JsonNode cfg) {
        Path file = dir.resolve("upstream-response.json");
        if (!Files.exists(file)) {
            return false;
        }
        try {
            ChatResponse canonical = Responses.fromUpstream(Golden.readJson(file), stops(cfg));
            JsonNode tree = CanonicalJson.tree(canonical);
            assertThat(CanonicalJson.response(tree)).as("canonical codec is lossless").isEqualTo(canonical);
            Golden.json(dir.resolve("canonical-response.json"), tree);
        } catch (GatewayException e) {
            assertThat(dir.resolve("canonical-response.json")).as("the answer was expected to be read").doesNotExist();
            Golden.json(dir.resolve("canonical-error.json"), CanonicalJson.tree(e.error()));
        }
        return true;
    }

    private static boolean streamChain(Path dir, JsonNode cfg) {
        Path file = dir.resolve("upstream-stream.sse");
        if (!Files.exists(file)) {
            return false;
        }
        List<StreamEvent> events = parse(Golden.read(file).getBytes(StandardCharsets.UTF_8), 7, stops(cfg));
        Golden.jsonl(dir.resolve("canonical-events.jsonl"), events.stream().map(CanonicalJson::compact).toList());
        Path whole = dir.resolve("canonical-response.json");
        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        if (acc.complete() && Files.exists(whole)) {
            assertThat(acc.response()).as("streamed and whole answers agree")
                    .isEqualTo(CanonicalJson.response(Golden.readJson(whole)));
        }
        return true;
    }

    private static boolean errorChain(Path dir, JsonNode cfg) {
        Path file = dir.resolve("upstream-error.json");
        if (!Files.exists(file)) {
            return false;
        }
        GatewayError error = Responses.errorFromUpstream(cfg.path("upstreamStatus").asInt(500),
                Golden.read(file).getBytes(StandardCharsets.UTF_8));
        Golden.json(dir.resolve("canonical-error.json"), CanonicalJson.tree(error));
        return true;
    }

    static List<String> stops(JsonNode cfg) {
        List<String> stops = new ArrayList<>();
        cfg.path("stop").forEach(s -> stops.add(s.asText()));
        return stops;
    }

    /** Feeds the body in {@code chunk}-byte pieces and ends it as the engine does. */
    static List<StreamEvent> parse(byte[] body, int chunk, List<String> stops) {
        SseParser sse = new SseParser();
        ResponsesUpstreamStreamParser parser = Responses.upstreamStreamParser(stops);
        List<StreamEvent> out = new ArrayList<>();
        for (int i = 0; i < body.length; i += chunk) {
            for (SseEvent e : sse.feed(Arrays.copyOfRange(body, i, Math.min(body.length, i + chunk)))) {
                out.addAll(parser.onEvent(e.event(), e.data()));
            }
        }
        for (SseEvent e : sse.finish()) {
            out.addAll(parser.onEvent(e.event(), e.data()));
        }
        out.addAll(parser.onEnd());
        return out;
    }
}
