package dev.switchboard.wire.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.sse.SseParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Golden files of the wire fixtures: compares an actual rendering with the committed file, or, with
 * {@code -Dfixtures.update=true}, rewrites the file so the change can be reviewed in the diff.
 * JSON is compared as trees (key order and spacing do not matter), SSE event by event (JSON payloads as
 * trees), JSONL line by line. A missing golden fails unless updating.
 */
public final class Golden {
    public static final boolean UPDATE = Boolean.getBoolean("fixtures.update");

    private Golden() {
    }

    /**
     * The fixtures root. Updates must land in the source tree, not in target/test-classes, so the build
     * passes the source path in {@code fixtures.dir}; from an IDE the working directory is the module.
     */
    public static Path root() {
        String dir = System.getProperty("fixtures.dir");
        if (dir != null && !dir.isBlank()) {
            return Paths.get(dir);
        }
        return Paths.get("src/test/resources/fixtures");
    }

    /** The case directories of a format, sorted by name. */
    public static List<Path> cases(String format) {
        try (Stream<Path> s = Files.list(root().resolve(format))) {
            return s.filter(Files::isDirectory).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode readJson(Path file) {
        return Json.parse(read(file));
    }

    public static void json(Path file, JsonNode actual) {
        String text = CanonicalJson.pretty(Json.parse(Json.write(actual)));
        if (update(file, text)) {
            return;
        }
        JsonNode expected = readJson(file);
        // Re-parse so number node kinds (int vs long) cannot make equal JSON differ.
        JsonNode normalized = Json.parse(Json.write(actual));
        if (!expected.equals(normalized)) {
            assertThat(text).as("golden %s", rel(file)).isEqualTo(CanonicalJson.pretty(expected));
            fail("golden %s differs", rel(file));
        }
    }

    public static void jsonl(Path file, List<String> actualLines) {
        String text = String.join("\n", actualLines) + "\n";
        if (update(file, text)) {
            return;
        }
        List<String> expected = read(file).lines().filter(l -> !l.isBlank()).toList();
        List<JsonNode> e = expected.stream().map(Json::parse).toList();
        List<JsonNode> a = actualLines.stream().map(Json::parse).toList();
        if (!e.equals(a)) {
            assertThat(String.join("\n", actualLines)).as("golden %s", rel(file))
                    .isEqualTo(String.join("\n", expected));
            fail("golden %s differs", rel(file));
        }
    }

    public static void sse(Path file, String actual) {
        if (update(file, actual)) {
            return;
        }
        String expected = read(file);
        if (!sameEvents(events(expected), events(actual))) {
            assertThat(actual).as("golden %s", rel(file)).isEqualTo(expected);
            fail("golden %s differs", rel(file));
        }
    }

    public static List<SseEvent> events(String sse) {
        SseParser p = new SseParser();
        List<SseEvent> out = new ArrayList<>(p.feed(sse));
        out.addAll(p.finish());
        return out;
    }

    private static boolean sameEvents(List<SseEvent> a, List<SseEvent> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            SseEvent x = a.get(i);
            SseEvent y = b.get(i);
            if (!x.event().equals(y.event())) {
                return false;
            }
            if (x.data().equals(y.data())) {
                continue;
            }
            try {
                if (!Json.parse(x.data()).equals(Json.parse(y.data()))) {
                    return false;
                }
            } catch (RuntimeException notJson) {
                return false;
            }
        }
        return true;
    }

    /** Writes the golden when updating; otherwise fails if it is missing. True when written. */
    private static boolean update(Path file, String text) {
        if (UPDATE) {
            try {
                if (!Files.exists(file) || !read(file).equals(text)) {
                    Files.writeString(file, text, StandardCharsets.UTF_8);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return true;
        }
        if (!Files.exists(file)) {
            fail("golden %s is missing; run the build with -Dfixtures.update=true and review it", rel(file));
        }
        return false;
    }

    private static String rel(Path file) {
        return root().relativize(file).toString();
    }
}
