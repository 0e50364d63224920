package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validation table {@code fixtures/gemini/validation/cases.json}: each client body must be refused
 * with a 400 {@code invalid_request_error} naming the offending field, never another exception.
 */
class GeminiValidationTest {
    private static final Path CASES = Path.of(System.getProperty("fixtures.dir", "src/test/resources/fixtures"))
            .resolve("gemini/validation/cases.json");

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (JsonNode c : GeminiFixturesTest.readJson(CASES)) {
            out.add(Arguments.of(c.get("name").asText(), c));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refusedNamingTheField(String name, JsonNode c) {
        String model = c.has("model") ? c.get("model").asText() : GeminiFixturesTest.MODEL;

        GatewayException thrown = catchThrowableOfType(GatewayException.class,
                () -> Gemini.fromClient(model, c.get("body")));

        assertThat(thrown).as("a 400 is thrown").isNotNull();
        GatewayError e = thrown.error();
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.type()).isEqualTo("invalid_request_error");
        Optional<String> param = c.get("param").isNull() ? Optional.empty() : Optional.of(c.get("param").asText());
        assertThat(e.param()).isEqualTo(param);
        assertThat(e.message()).contains(c.get("message").asText());
        assertThat(e.retryable()).isFalse();
    }
}
