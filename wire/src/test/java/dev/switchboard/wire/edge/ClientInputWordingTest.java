package dev.switchboard.wire.edge;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.openai.OpenAi;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Bad input is described in a person's words: what is wrong with a body that is not JSON (never the parser's
 * class or switch names), and the allowed range of a number that does not fit, however large it is.
 */
class ClientInputWordingTest {

    private static GatewayError error(ThrowingCallable call) {
        GatewayError[] caught = new GatewayError[1];
        assertThatThrownBy(call).isInstanceOfSatisfying(GatewayException.class, e -> caught[0] = e.error());
        return caught[0];
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"a\": NaN}|NaN and Infinity are not JSON numbers",
            "{\"a\": 1 /* note */}|JSON has no comments",
            "{\"a\": \"x|ends in the middle of a value",
            "{\"a\": 1} {\"b\": 2}|more after the JSON value",
            "{'a': 1}|double quotes",
            "{\"a\": tru}|not a JSON value",
            "{\"a\": \"\\q\"}|an escape JSON does not have",
    })
    void malformedJsonIsExplainedWithoutTheParsersVocabulary(String body, String expected) {
        GatewayError e = error(() -> Json.parse(body));

        org.assertj.core.api.Assertions.assertThat(e.status()).isEqualTo(400);
        org.assertj.core.api.Assertions.assertThat(e.message()).startsWith("The request body is not valid JSON: ")
                .contains(expected)
                .doesNotContain("JsonReadFeature").doesNotContain("Feature").doesNotContain("VALUE_STRING")
                .doesNotContain("StreamReadConstraints").doesNotContain("code 47").doesNotContain("`");
    }

    @Test
    void nestingBeyondTheParsersDepthIsSaidPlainly() {
        GatewayError e = error(() -> Json.parse("[".repeat(3000) + "]".repeat(3000)));

        org.assertj.core.api.Assertions.assertThat(e.message()).contains("nested more than 1000 levels deep")
                .doesNotContain("getMaxNestingDepth");
    }

    @Test
    void aMaxTokensBeyondSixtyFourBitsNamesTheRangeNotTheType() {
        GatewayError e = error(() -> OpenAi.fromClient(Json.parse(
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":9223372036854775808}")));

        org.assertj.core.api.Assertions.assertThat(e.param()).isEqualTo(Optional.of("max_tokens"));
        org.assertj.core.api.Assertions.assertThat(e.message()).contains("at most").contains("9223372036854775808")
                .doesNotContain("must be an integer");
    }

    @Test
    void aMaxOutputTokensAboveTheIntRangeSaysAtMost() {
        GatewayError e = error(() -> Gemini.fromClient("m", Json.parse(
                "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}],\"generationConfig\":{\"maxOutputTokens\":3000000000}}")));

        org.assertj.core.api.Assertions.assertThat(e.param()).isEqualTo(Optional.of("generationConfig.maxOutputTokens"));
        org.assertj.core.api.Assertions.assertThat(e.message()).contains("at most 2147483647").contains("3000000000")
                .doesNotContain("at least");
    }
}
