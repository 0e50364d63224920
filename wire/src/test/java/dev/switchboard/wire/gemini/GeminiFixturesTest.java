package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.sse.SseParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden fixtures of the Gemini format, one directory per case under {@code fixtures/gemini/}. Which
 * translations run depends on which input files a case has:
 *
 * <pre>
 * client-request.json   -> canonical-request.json (golden) -> upstream-request.json (golden)
 * canonical-request.json (when there is no client request: an input, e.g. history from another format)
 * upstream-response.json -> canonical-response.json (golden) -> client-response.json (golden)
 * canonical-response.json (when there is no upstream response: an input)
 * upstream-stream.sse   -> canonical-events.json (golden) -> client-stream.sse, client-stream-array.json
 * canonical-events.json (when there is no upstream stream: an input)
 * </pre>
 *
 * Cases whose name starts with {@code thinking-} also render {@code upstream-request.thinking-budget.json}
 * with {@link GeminiUpstreamOptions.EffortMapping#THINKING_BUDGET}. A missing golden fails the test;
 * {@code -Dfixtures.update=true} (re)writes the goldens for review instead of comparing.
 */
class GeminiFixturesTest {
    static final String MODEL = "gemini-2.5-flash";
    private static final Path ROOT = Path.of(System.getProperty("fixtures.dir", "src/test/resources/fixtures"))
            .resolve("gemini");
    private static final boolean UPDATE = Boolean.getBoolean("fixtures.update");

    static Stream<String> cases() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.filter(Files::isDirectory)
                    .filter(d -> Files.exists(d.resolve("client-request.json")) || Files.exists(d.resolve("canonical-request.json"))
                            || Files.exists(d.resolve("upstream-response.json")) || Files.exists(d.resolve("canonical-response.json"))
                            || Files.exists(d.resolve("upstream-stream.sse")) || Files.exists(d.resolve("canonical-events.json")))
                    .map(d -> d.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void fixture(String name) {
        Path dir = ROOT.resolve(name);
        request(dir, name);
        response(dir);
        stream(dir);
    }

    private static void request(Path dir, String name) {
        ChatRequest canonical;
        if (Files.exists(dir.resolve("client-request.json"))) {
            canonical = Gemini.fromClient(MODEL, readJson(dir.resolve("client-request.json")));
            golden(dir.resolve("canonical-request.json"), CanonicalJson.tree(canonical));
            assertThat(CanonicalJson.request(CanonicalJson.tree(canonical))).as("canonical JSON round trip").isEqualTo(canonical);
        } else if (Files.exists(dir.resolve("canonical-request.json"))) {
            canonical = CanonicalJson.request(readJson(dir.resolve("canonical-request.json")));
        } else {
            return;
        }
        golden(dir.resolve("upstream-request.json"), Gemini.toUpstream(canonical));
        if (name.startsWith("thinking-")) {
            golden(dir.resolve("upstream-request.thinking-budget.json"), Gemini.toUpstream(canonical,
                    new GeminiUpstreamOptions(GeminiUpstreamOptions.EffortMapping.THINKING_BUDGET)));
        }
    }

    private static void response(Path dir) {
        ChatResponse canonical;
        if (Files.exists(dir.resolve("upstream-response.json"))) {
            canonical = Gemini.fromUpstream(readJson(dir.resolve("upstream-response.json")));
            golden(dir.resolve("canonical-response.json"), CanonicalJson.tree(canonical));
        } else if (Files.exists(dir.resolve("canonical-response.json"))) {
            canonical = CanonicalJson.response(readJson(dir.resolve("canonical-response.json")));
        } else {
            return;
        }
        golden(dir.resolve("client-response.json"), Gemini.toClient(canonical, MODEL));
    }

    private static void stream(Path dir) {
        List<StreamEvent> events;
        if (Files.exists(dir.resolve("upstream-stream.sse"))) {
            byte[] sse = readBytes(dir.resolve("upstream-stream.sse"));
            events = parseStream(sse, 7);
            assertThat(parseStream(sse, sse.length)).as("same events whatever the network chunking").isEqualTo(events);
            golden(dir.resolve("canonical-events.json"), CanonicalJson.eventsTree(events));
        } else if (Files.exists(dir.resolve("canonical-events.json"))) {
            events = CanonicalJson.events(readJson(dir.resolve("canonical-events.json")));
        } else {
            return;
        }
        String sse = render(events, GeminiClientStreamWriter.Mode.SSE);
        goldenText(dir.resolve("client-stream.sse"), sse);
        for (SseEvent e : new SseParser().feed(sse)) {
            assertThat(Json.parse(e.data()).isObject()).as("every SSE event is one JSON object").isTrue();
        }
        String array = render(events, GeminiClientStreamWriter.Mode.JSON_ARRAY);
        goldenText(dir.resolve("client-stream-array.json"), array);
        JsonNode parsed = Json.parse(array);
        assertThat(parsed.isArray()).as("the array stream is one JSON array").isTrue();
        assertThat(parsed.size()).as("both framings carry the same chunks").isEqualTo(new SseParser().feed(sse).size());
    }

    /** Feeds the SSE bytes in pieces of {@code chunk} bytes, as a network would deliver them. */
    static List<StreamEvent> parseStream(byte[] sse, int chunk) {
        SseParser sseParser = new SseParser();
        GeminiUpstreamStreamParser parser = new GeminiUpstreamStreamParser();
        List<StreamEvent> events = new ArrayList<>();
        for (int i = 0; i < sse.length; i += chunk) {
            for (SseEvent e : sseParser.feed(Arrays.copyOfRange(sse, i, Math.min(sse.length, i + chunk)))) {
                events.addAll(parser.onEvent(e.event(), e.data()));
            }
        }
        for (SseEvent e : sseParser.finish()) {
            events.addAll(parser.onEvent(e.event(), e.data()));
        }
        events.addAll(parser.onEnd());
        return events;
    }

    static String render(List<StreamEvent> events, GeminiClientStreamWriter.Mode mode) {
        GeminiClientStreamWriter writer = new GeminiClientStreamWriter(mode, MODEL);
        StringBuilder out = new StringBuilder();
        events.forEach(e -> out.append(writer.write(e)));
        out.append(writer.finish());
        return out.toString();
    }

    static ChatResponse accumulate(List<StreamEvent> events) {
        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        return acc.response();
    }

    private static void golden(Path file, JsonNode actual) {
        if (UPDATE) {
            write(file, CanonicalJson.pretty(actual));
            return;
        }
        if (!Files.exists(file)) {
            fail("missing golden " + file + "; run with -Dfixtures.update=true and review it");
        }
        // Reparsed, so that a long 3 and an int 3 compare equal as they read the same.
        assertThat(Json.parse(Json.write(actual))).as(file.toString()).isEqualTo(readJson(file));
    }

    private static void goldenText(Path file, String actual) {
        if (UPDATE) {
            write(file, actual);
            return;
        }
        if (!Files.exists(file)) {
            fail("missing golden " + file + "; run with -Dfixtures.update=true and review it");
        }
        assertThat(actual).as(file.toString()).isEqualTo(new String(readBytes(file), StandardCharsets.UTF_8));
    }

    static JsonNode readJson(Path file) {
        return Json.parse(readBytes(file));
    }

    private static byte[] readBytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
