package dev.switchboard.wire.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayException;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.testing.Golden;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validation table {@code fixtures/responses-validation.json}: every row is a body the reader (and,
 * for conversation rules, {@link Responses#toCanonical}) must refuse with a 400 naming the field.
 * Each row is a {@code patch} merged over the minimal valid {@code base} (a null value removes the
 * field) or a {@code raw} body, the expected {@code param} (null for none) and optionally a
 * {@code message} fragment.
 */
class ResponsesValidationTest {
    private static final JsonNode TABLE = Golden.readJson(Golden.root().resolve("responses-validation.json"));

    static Stream<Arguments> rows() {
        List<Arguments> out = new ArrayList<>();
        for (JsonNode row : TABLE.path("cases")) {
            out.add(Arguments.of(Named.of(row.path("name").asText(), row)));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void refused(JsonNode row) {
        byte[] body;
        if (row.has("raw")) {
            body = row.path("raw").asText().getBytes(StandardCharsets.UTF_8);
        } else {
            ObjectNode b = TABLE.path("base").deepCopy();
            row.path("patch").properties().forEach(e -> {
                if (e.getValue().isNull()) {
                    b.remove(e.getKey());
                } else {
                    b.set(e.getKey(), e.getValue());
                }
            });
            body = Json.writeBytes(b);
        }
        Optional<String> param = row.path("param").isNull() ? Optional.empty() : Optional.of(row.path("param").asText());
        assertThatThrownBy(() -> Responses.toCanonical(Responses.fromClient(body), List.of()))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().type()).isEqualTo("invalid_request_error");
                    assertThat(e.error().param()).isEqualTo(param);
                    assertThat(e.error().message()).contains(row.path("message").asText(""));
                });
    }

    @Test
    void theBaseIsValid() {
        ObjectNode base = TABLE.path("base").deepCopy();
        assertThat(Responses.toCanonical(Responses.fromClient(base), List.of()).messages()).hasSize(1);
    }
}
