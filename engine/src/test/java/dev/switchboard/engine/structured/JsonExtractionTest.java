package dev.switchboard.engine.structured;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
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

    @Test
    void fenceWithLanguageTag() {
        assertThat(extract("Here you go:\n```json\n{\"name\": \"Ada\", \"age\": 36}\n```\nAnything else?"))
                .contains("{\"name\": \"Ada\", \"age\": 36}");
    }

    @Test
    void fenceWithoutLanguageTag() {
        assertThat(extract("```\n[{\"id\": 1}, {\"id\": 2}]\n```")).contains("[{\"id\": 1}, {\"id\": 2}]");
    }

    @Test
    void fenceWithUpperCaseTagAndTildes() {
        assertThat(extract("~~~JSON\n{\"ok\": true}\n~~~")).contains("{\"ok\": true}");
    }

    @Test
    void inlineFences() {
        assertThat(extract("Result: ```{\"a\":1}``` done")).contains("{\"a\":1}");
        assertThat(extract("Result: ```json {\"a\":1}``` done")).contains("{\"a\":1}");
        assertThat(extract("Answer: ```true```")).contains("true");
    }

    @Test
    void fencedScalarIsAValue() {
        assertThat(extract("The count is\n```json\n42\n```")).contains("42");
    }

    @Test
    void jsonStartingOnTheFenceLine() {
        assertThat(extract("```json {\n  \"a\": 1\n}\n```")).contains("{\n  \"a\": 1\n}");
    }

    @Test
    void proseBeforeAndAfterABareObject() {
        assertThat(extract("Sure! The answer is {\"city\": \"Paris\", \"population\": 2100000}. Hope that helps."))
                .contains("{\"city\": \"Paris\", \"population\": 2100000}");
    }

    @Test
    void bareArrayInProse() {
        assertThat(extract("The primes: [2, 3, 5, 7] as requested")).contains("[2, 3, 5, 7]");
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
    void theFirstCompleteValidValueWins() {
        assertThat(extract("First {\"a\": 1} then {\"b\": 2}")).contains("{\"a\": 1}");
        assertThat(extract("```json\n{\"fenced\": 1}\n```\nand later {\"bare\": 2}")).contains("{\"fenced\": 1}");
        assertThat(extract("Before: {\"bare\": 0}\n```json\n{\"fenced\": 1}\n```")).contains("{\"bare\": 0}");
    }

    @Test
    void anInvalidCandidateIsSkippedForALaterValidOne() {
        assertThat(extract("Template {name} filled: {\"name\": \"Bo\"}")).contains("{\"name\": \"Bo\"}");
        assertThat(extract("```python\nx = {1: 2}\n```\nThe JSON: ```json\n{\"x\": 1}\n```")).contains("{\"x\": 1}");
    }

    @Test
    void aMismatchedCloserEndsOnlyThatCandidate() {
        assertThat(extract("oops {] then {\"a\": 1}")).contains("{\"a\": 1}");
    }

    @Test
    void nothingNestedInABrokenValueIsPickedOut() {
        // JSON with a comment is invalid; its inner object is a fragment, not the answer
        String withComment = "```json\n{\n  \"a\": 1, // one\n  \"b\": {\"c\": 2}\n}\n```";
        assertThat(extract(withComment)).isEmpty();
        assertThat(extract("Here: {\"a\": 1, // one\n \"b\": {\"c\": 2}}")).isEmpty();
    }

    @Test
    void aTruncatedAnswerIsLeftAlone() {
        assertThat(extract("Here is the data: {\"items\": [{\"id\": 1}, {\"id\": 2}, {\"id\"")).isEmpty();
        assertThat(extract("```json\n{\"items\": [1, 2")).isEmpty();
    }

    @Test
    void invalidJsonIsLeftAlone() {
        assertThat(extract("{'single': 'quotes'}")).isEmpty();
        assertThat(extract("Result: {\"a\": 1,}")).isEmpty();
        assertThat(extract("Value: {\"n\": NaN}")).isEmpty();
        assertThat(extract("```json\n{\"a\": 1} trailing\n```")).isEmpty();
    }

    @Test
    void plainProseIsLeftAlone() {
        assertThat(extract("I cannot answer that in JSON, sorry.")).isEmpty();
        assertThat(extract("")).isEmpty();
        assertThat(extract("   ")).isEmpty();
        assertThat(extract("There are 3 apples")).isEmpty();
    }

    @Test
    void inlineCodeSpanAroundJson() {
        assertThat(extract("Use `{\"a\": 1}` here")).contains("{\"a\": 1}");
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
