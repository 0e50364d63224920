package dev.switchboard.engine.structured;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonExtractionTest {

    private static Optional<String> extract(String text) {
        return JsonExtraction.extract(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1}", "  {\"a\": [1, 2]}\n", "[1,2,3]", "42", "\"just a string\"", "null", "true"})
    void textThatAlreadyIsOneJsonValueIsLeftAlone(String text) {
        assertThat(extract(text)).isEmpty();
    }

    /**
     * The table of texts ({@code structured/json-extraction.json}): {@code extracted}, texts with one JSON value in
     * them and the value that comes out; {@code leftAlone}, texts without one complete, valid value.
     */
    private static final JsonNode TABLE = table();

    private static JsonNode table() {
        try (InputStream in = JsonExtractionTest.class.getResourceAsStream("/structured/json-extraction.json")) {
            return Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<Arguments> extracted() {
        return StreamSupport.stream(TABLE.path("extracted").spliterator(), false)
                .map(row -> arguments(row.path("case").asText(), row.path("text").asText(), row.path("value").asText()));
    }

    static Stream<Arguments> leftAlone() {
        return StreamSupport.stream(TABLE.path("leftAlone").spliterator(), false)
                .map(row -> arguments(row.path("case").asText(), row.path("text").asText()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("extracted")
    void theValueComesOut(String what, String text, String value) {
        assertThat(extract(text)).contains(value);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("leftAlone")
    void withoutOneValidValueTheTextIsLeftAlone(String why, String text) {
        assertThat(extract(text)).isEmpty();
    }

    @Test
    void bracketsAndQuotesInsideStringsDoNotConfuseTheScan() {
        String json = "{\"text\": \"a } tricky ] value with \\\"quotes\\\" and {braces}\", \"n\": [1, {\"x\": \"]\"}]}";
        assertThat(extract("Output: " + json + " -- end")).contains(json);
    }

    @Test
    void nestedObjectsComeOutWhole() {
        String json = "{\"a\": {\"b\": {\"c\": [1, [2, [3]]]}}}";
        assertThat(extract("Nested: " + json + "!")).contains(json);
    }

    @Test
    void unicodeAndEscapesSurvive() {
        String json = "{\"greeting\": \"h\\u00e9llo \u00e9t\u00e9 \ud83d\ude00\", \"path\": \"C:\\\\dir\"}";
        assertThat(extract("Voil\u00e0: " + json)).contains(json);
    }

    @Test
    void deeplyNestedValueBeyondTheInitialStack() {
        String json = "[".repeat(40) + "1" + "]".repeat(40);
        assertThat(extract("deep " + json)).contains(json);
    }

    @Test
    void longPathologicalTextStaysLinear() {
        // 300,000 unclosed braces: a scan that restarted at every brace would do about 10^10 steps (minutes);
        // the linear one takes milliseconds, so the generous bound only catches the quadratic case
        String text = "{x ".repeat(300_000) + "and {\"a\": 1}";
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            // the first brace never closes, so everything after it is nested in it: left alone
            assertThat(extract(text)).isEmpty();
            assertThat(extract("}] ".repeat(300_000) + "{\"a\": 1}")).contains("{\"a\": 1}");
        });
    }
}
