package dev.switchboard.wire.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.ForeignSignatures;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Answers and errors: canonical to an Anthropic client, and an Anthropic upstream's to canonical. */
class AnthropicResponseTest {

    private static ChatResponse answer(List<ContentBlock> content, StopReason reason, Usage usage) {
        return new ChatResponse("msg_1", "gw-model", content, reason, Optional.of("END"), usage);
    }

    @Test
    void answersFromOtherProvidersAreShownAsAnthropicBlocks() {
        JsonNode out = Anthropic.toClient(answer(List.of(
                new ContentBlock.Thinking("gemini thought", Optional.of(new Signature("gemini", "g"))),
                ContentBlock.Thinking.of("deepseek thought"),
                new ContentBlock.RedactedThinking("enc", "openai"),
                new ContentBlock.Opaque("gemini", Json.object()),
                ContentBlock.Text.of("hi"),
                ContentBlock.ToolCall.of("call_1", "f", ""),
                ContentBlock.ToolCall.of("functions.g:1", "g", "[1]"),
                ContentBlock.ToolCall.of("", "gemini_without_id", "{}")), StopReason.OTHER, Usage.of(10, 5)));

        // Other providers' signatures are shown encoded, so they return to their provider with the next turn.
        assertThat(Json.write(out.get("content"))).isEqualTo("["
                + "{\"type\":\"thinking\",\"thinking\":\"gemini thought\",\"signature\":\""
                + ForeignSignatures.encode(new Signature("gemini", "g")) + "\"},"
                + "{\"type\":\"thinking\",\"thinking\":\"deepseek thought\",\"signature\":\"\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"" + ForeignSignatures.encode(new Signature("openai", "enc"))
                + "\"},"
                + "{\"type\":\"text\",\"text\":\"hi\"},"
                + "{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"f\",\"input\":{}},"
                + "{\"type\":\"tool_use\",\"id\":\"functions.g:1\",\"name\":\"g\",\"input\":{}},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_empty\",\"name\":\"gemini_without_id\",\"input\":{}}]");
        assertThat(out.get("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(out.get("stop_sequence").isNull()).as("only for stop_sequence stops").isTrue();
        assertThat(Json.write(out.get("usage"))).isEqualTo("{\"input_tokens\":10,\"output_tokens\":5}");
    }

    @ParameterizedTest
    @EnumSource(StopReason.class)
    void everyStopReasonRoundTripsExceptOther(StopReason reason) {
        JsonNode out = Anthropic.toClient(answer(List.of(), reason, Usage.EMPTY));

        StopReason back = Anthropic.fromUpstream(out).stopReason();

        assertThat(back).isEqualTo(reason == StopReason.OTHER ? StopReason.END_TURN : reason);
        assertThat(out.get("stop_sequence").isTextual()).isEqualTo(reason == StopReason.STOP_SEQUENCE);
    }

    @Test
    void cacheCountsAreSubtractedFromInputAndAddedBack() {
        Usage usage = new Usage(1000, 50, 20, 600, 100, 200, Usage.Provenance.REPORTED);

        JsonNode written = Anthropic.toClient(answer(List.of(), StopReason.END_TURN, usage)).get("usage");

        assertThat(Json.write(written)).isEqualTo("{\"input_tokens\":100,\"cache_creation_input_tokens\":300,"
                + "\"cache_read_input_tokens\":600,\"cache_creation\":{\"ephemeral_5m_input_tokens\":100,"
                + "\"ephemeral_1h_input_tokens\":200},\"output_tokens\":50}");
        Usage read = AnthropicUsageJson.read(written, Usage.EMPTY);
        assertThat(read).isEqualTo(new Usage(1000, 50, 0, 600, 100, 200, Usage.Provenance.REPORTED));
    }

    @Test
    void writesWithoutATtlSplitCountAsFiveMinutes() {
        Usage read = AnthropicUsageJson.read(Json.parse("{\"input_tokens\":5,\"cache_creation_input_tokens\":40,"
                + "\"cache_creation\":{\"ephemeral_5m_input_tokens\":0,\"ephemeral_1h_input_tokens\":0},\"output_tokens\":-3}"),
                Usage.EMPTY);

        assertThat(read).isEqualTo(new Usage(45, 0, 0, 0, 40, 0, Usage.Provenance.REPORTED));
    }

    @Test
    void anUpstreamBodyThatIsNoMessageIsARetryable502() {
        assertThatThrownBy(() -> Anthropic.fromUpstream(Json.parse("{\"type\":\"error\"}")))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(502);
                    assertThat(e.error().retryable()).isTrue();
                });
    }

    @Test
    void errorBodyIsTheSpecEnvelopePlusTheAnthropicType() {
        JsonNode body = Anthropic.errorBody(GatewayError.invalid("messages[1].content[0].type", "bad type"));

        assertThat(Json.write(body)).isEqualTo("{\"type\":\"error\",\"error\":{\"message\":\"bad type\","
                + "\"type\":\"invalid_request_error\",\"param\":\"messages[1].content[0].type\",\"code\":\"400\"}}");
        assertThat(Json.write(Anthropic.errorBody(GatewayError.rateLimited("slow down")).get("error")))
                .isEqualTo("{\"message\":\"slow down\",\"type\":\"rate_limit_error\",\"param\":null,\"code\":\"429\"}");
    }

    @ParameterizedTest
    @CsvSource({
        "400, invalid_request_error, false",
        "401, auth_required, false",
        "403, model_access_denied, false",
        "404, model_not_found, false",
        "408, invalid_request_error, true",
        "413, invalid_request_error, false",
        "429, rate_limit_error, true",
        "500, api_error, true",
        "501, api_error, false",
        "503, api_error, true",
        "529, api_error, true",
    })
    void upstreamErrorsKeepTheirMessageAndAreRetryableByStatus(int status, String type, boolean retryable) {
        byte[] body = ("{\"type\":\"error\",\"error\":{\"type\":\"whatever\",\"message\":\"upstream says " + status
                + "\"},\"request_id\":\"req_1\"}").getBytes(StandardCharsets.UTF_8);

        GatewayError error = Anthropic.errorFromUpstream(status, body);

        assertThat(error).isEqualTo(new GatewayError(status, type, "upstream says " + status, Optional.empty(), retryable));
    }

    @Test
    void anUnreadableErrorBodyStillGivesAnError() {
        GatewayError html = Anthropic.errorFromUpstream(502, "<html>bad gateway</html>".getBytes(StandardCharsets.UTF_8));
        GatewayError odd = Anthropic.errorFromUpstream(200, new byte[0]);

        assertThat(html.status()).isEqualTo(502);
        assertThat(html.message()).contains("502").doesNotContain("<html>");
        assertThat(html.retryable()).isTrue();
        assertThat(odd.status()).isEqualTo(502);
    }
}
