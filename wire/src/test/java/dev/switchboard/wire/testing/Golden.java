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
 * {@code -Dfixtures.update=true} (the one update switch of the fixtures), rewrites the file so the change
 * can be reviewed in the diff. A missing golden fails unless updating.
 *
 * <p>Comparisons are strict: JSON as its pretty-printed text (key order counts, spacing does not, and
 * {@code 3} reads the same whether it was an int or a long), everything else (SSE, JSON Lines, a JSON
 * array stream) byte for byte, because those are the bytes a client receives.
 */
public final class Golden {
    /** {@code -Dfixtures.update=true}: rewrite goldens instead of comparing. */
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
        return new String(readBytes(file), StandardCharsets.UTF_8);
    }

    public static byte[] readBytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode readJson(Path file) {
        return Json.parse(readBytes(file));
    }

    /** The lines of a JSON Lines file that are not blank. */
    public static List<String> readLines(Path file) {
        return read(file).lines().filter(l -> !l.isBlank()).toList();
    }

    /** A JSON golden: {@code actual} pretty-printed must read as the file does. */
    public static void json(Path file, JsonNode actual) {
        // Re-parsed, so that number node kinds (int vs long) cannot make equal JSON differ.
        String text = CanonicalJson.pretty(Json.parse(Json.write(actual)));
        if (update(file, text)) {
            return;
        }
        assertThat(text).as("golden %s (-Dfixtures.update=true rewrites it)", rel(file))
                .isEqualTo(CanonicalJson.pretty(readJson(file)));
    }

    /** A JSON Lines golden: one compact JSON value per line. */
    public static void jsonl(Path file, List<String> lines) {
        text(file, lines.stream().map(l -> l + "\n").reduce("", String::concat));
    }

    /** A golden compared byte for byte (SSE, JSON Lines, a JSON array stream). */
    public static void text(Path file, String actual) {
        if (update(file, actual)) {
            return;
        }
        assertThat(actual).as("golden %s (-Dfixtures.update=true rewrites it)", rel(file)).isEqualTo(read(file));
    }

    /** The events of an SSE text, as a client's parser sees them. */
    public static List<SseEvent> events(String sse) {
        return events(sse.getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE);
    }

    /** The events of SSE bytes fed in pieces of {@code chunk} bytes, as a network would deliver them. */
    public static List<SseEvent> events(byte[] sse, int chunk) {
        SseParser parser = new SseParser();
        List<SseEvent> out = new ArrayList<>();
        for (int i = 0; i < sse.length; i += chunk) {
            out.addAll(parser.feed(java.util.Arrays.copyOfRange(sse, i, (int) Math.min(sse.length, (long) i + chunk))));
        }
        out.addAll(parser.finish());
        return out;
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
