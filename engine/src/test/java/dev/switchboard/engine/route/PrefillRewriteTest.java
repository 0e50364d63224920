package dev.switchboard.engine.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.openai.OpenAi;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one rule that tells a provider's refusal of assistant prefill from other failures, fed the errors
 * as each format's upstream reader translates them (the rule must not depend on which provider failed).
 */
class PrefillRewriteTest {

    private static UpstreamFailure http(int status, GatewayError error) {
        return UpstreamFailure.http(status, error, Optional.empty());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anthropicsRefusalOfPrefillIsOne() {
        byte[] body = utf8("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":"
                + "\"This model does not support assistant message prefill. The conversation must end with a user message.\"},"
                + "\"request_id\":\"req_011CSHoEeqs5C35K2UUqR7Fy\"}");
        assertThat(PrefillRewrite.isRejection(http(400, Anthropic.errorFromUpstream(400, body)))).isTrue();
    }

    @Test
    void aRefusalNamingPrefillIsOneWhicheverFormatReportedIt() {
        String openAi = "{\"error\":{\"message\":\"Assistant prefill is not supported for this model.\",\"type\":\"invalid_request_error\"}}";
        String gemini = "{\"error\":{\"code\":400,\"message\":\"Prefill of the model turn is not allowed.\",\"status\":\"INVALID_ARGUMENT\"}}";
        assertThat(PrefillRewrite.isRejection(http(400, OpenAi.errorFromUpstream(400, utf8(openAi))))).isTrue();
        assertThat(PrefillRewrite.isRejection(http(400, Gemini.errorFromUpstream(400, utf8(gemini))))).isTrue();
    }

    @Test
    void aRefusalIsA400WhoseMessageTalksAboutPrefill() {
        GatewayError prefill = GatewayError.invalidRequest("This model does not support assistant message prefill.");
        assertThat(PrefillRewrite.isRejection(http(400, prefill))).isTrue();
        assertThat(PrefillRewrite.isRejection(http(400,
                GatewayError.invalidRequest("Prefilling assistant messages is not supported for this model.")))).isTrue();
        assertThat(PrefillRewrite.isRejection(http(500, prefill))).isFalse();
        assertThat(PrefillRewrite.isRejection(http(400, GatewayError.invalidRequest("messages: roles must alternate"))))
                .isFalse();
    }

    @Test
    void otherFailuresAreNot() {
        byte[] overloaded = utf8("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
        assertThat(PrefillRewrite.isRejection(http(529, Anthropic.errorFromUpstream(529, overloaded)))).isFalse();
        assertThat(PrefillRewrite.isRejection(http(400, GatewayError.invalidRequest("max_tokens: must be at most 8192"))))
                .isFalse();
        assertThat(PrefillRewrite.isRejection(http(500, GatewayError.internal("prefill cache warming failed"))))
                .as("only a 400 refuses the request's shape").isFalse();
        assertThat(PrefillRewrite.isRejection(UpstreamFailure.of(UpstreamFailure.Kind.RESET, "connection reset during prefill")))
                .isFalse();
    }
}
