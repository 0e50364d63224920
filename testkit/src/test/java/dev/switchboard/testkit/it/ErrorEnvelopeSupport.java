package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;

/**
 * The error envelope every client format answers with, checked one way for the suites that read raw responses:
 * a readable message without internals, the status as {@code code}, a {@code param} member, and the format's own
 * marker (the messages format's {@code type: error}, the content-parts format's {@code status}, none for the others).
 */
public final class ErrorEnvelopeSupport {
    private ErrorEnvelopeSupport() {
    }

    /**
     * Asserts that {@code body} is the error envelope of {@code format} for {@code status}.
     *
     * @param format a client format named as the suites name them: {@code CHAT}, {@code MESSAGES},
     *               {@code CONTENT_PARTS} or {@code RESPONSES}
     */
    public static void assertEnvelope(Enum<?> format, String body, int status) {
        JsonNode root = ItSupport.json(body);
        JsonNode error = root.path("error");
        assertThat(error.path("message").asText()).as("%s message", format).isNotBlank()
                .doesNotContainIgnoringCase("exception").doesNotContainIgnoringCase("helidon").doesNotContain("\tat ");
        assertThat(error.path("code").asText()).isEqualTo(Integer.toString(status));
        assertThat(error.has("param")).isTrue();
        switch (format.name()) {
            case "MESSAGES" -> assertThat(root.path("type").asText()).isEqualTo("error");
            case "CONTENT_PARTS" -> assertThat(error.path("status").asText()).isNotBlank();
            default -> assertThat(root.has("type")).isFalse();
        }
    }

    /** Asserts that {@code response} is a 400 whose error names {@code param} as the offending field. */
    public static void assertRefusedNaming(HttpResponse<String> response, String param) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(ItSupport.json(response.body()).at("/error/param").asText()).isEqualTo(param);
    }
}
