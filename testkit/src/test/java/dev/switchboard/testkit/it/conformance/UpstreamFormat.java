package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RawExchange;
import dev.switchboard.testkit.RecordedRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the matrix knows about one upstream wire format, independently of the gateway's wire code: whether
 * a request the fake received is well-formed for the real provider (stricter than the fake where the real
 * provider is: unknown top-level fields, for instance, are a 400 at OpenAI, Anthropic and Google), where the
 * format puts tools, reasoning controls, images and JSON modes, and how to answer with a given text (for
 * the scripted JSON cells), whole or streamed.
 */
interface UpstreamFormat {

    /** Everything wrong with {@code request} for this format; empty when it is well-formed. */
    List<String> problems(RecordedRequest request, String apiKey);

    /** Whether the request asks for a streamed answer: {@code stream: true} in the body, unless the format says otherwise. */
    default boolean streamed(RecordedRequest request) {
        return request.json().path("stream").asBoolean(false);
    }

    /** The names of the functions the request declares. */
    List<String> toolNames(RecordedRequest request);

    /** The value at {@code pointer} (a JSON pointer) in each entry of the body's {@code tools}: their names. */
    static List<String> toolNamesAt(RecordedRequest request, String pointer) {
        List<String> names = new ArrayList<>();
        request.json().path("tools").forEach(t -> names.add(t.at(pointer).asText()));
        return names;
    }

    /** The native reasoning control, described, when the request asks the model to reason and show it. */
    Optional<String> reasoning(RecordedRequest request);

    /** The base64 data of every PNG the request carries as a native image part. */
    List<String> pngData(RecordedRequest request);

    /**
     * The base64 data of the PNGs sent as data URLs in the parts of type {@code partType} of each turn's
     * {@code content}, the URL at {@code urlPointer} (a JSON pointer) in the part.
     */
    static List<String> pngDataUrls(JsonNode turns, String partType, String urlPointer) {
        List<String> data = new ArrayList<>();
        String prefix = "data:" + Fixtures.PNG_TYPE + ";base64,";
        for (JsonNode turn : turns) {
            for (JsonNode part : turn.path("content")) {
                String url = part.at(urlPointer).asText("");
                if (part.path("type").asText().equals(partType) && url.startsWith(prefix)) {
                    data.add(url.substring(prefix.length()));
                }
            }
        }
        return data;
    }

    /** The native JSON output mode, described, when the request has one (with or without a schema). */
    Optional<String> jsonMode(RecordedRequest request);

    /** The JSON Schema the request constrains the output with, in the format's own place for it. */
    Optional<JsonNode> schema(RecordedRequest request);

    /** Answers {@code request} with {@code text} as the model's whole answer, streamed when it asked so. */
    void answer(RecordedRequest request, RawExchange exchange, String text) throws IOException;

    /** Collects problems with a little vocabulary; a {@code path} names the offending field. */
    final class Problems {
        final List<String> list = new ArrayList<>();

        void add(String path, String what) {
            list.add(path + ": " + what);
        }

        void require(boolean ok, String path, String what) {
            if (!ok) {
                add(path, what);
            }
        }

        void onlyKnownKeys(JsonNode object, Set<String> known, String path) {
            object.fieldNames().forEachRemaining(name -> {
                if (!known.contains(name)) {
                    add(path.isEmpty() ? name : path + "." + name, "unknown field (the provider rejects it)");
                }
            });
        }

        void matches(JsonNode value, Pattern pattern, String path) {
            require(value.isTextual() && pattern.matcher(value.asText()).matches(), path,
                    "must match " + pattern.pattern() + ", is " + value);
        }
    }

    /** The text in about three pieces, so a client that does not concatenate deltas is caught. */
    static List<String> pieces(String text) {
        int size = Math.max(1, (text.length() + 2) / 3);
        List<String> pieces = new ArrayList<>();
        for (int start = 0; start < text.length(); start += size) {
            pieces.add(text.substring(start, Math.min(text.length(), start + size)));
        }
        return pieces;
    }
}
