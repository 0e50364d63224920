package dev.switchboard.wire.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.StreamEvent.BlockDelta;
import dev.switchboard.model.StreamEvent.BlockStart;
import dev.switchboard.model.StreamEvent.BlockStop;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.ForeignSignatures;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.testing.Golden;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The stream writer and parser on streams other formats produce, and on broken upstream streams. */
class AnthropicStreamTest {

    private static final StreamEvent START = new StreamEvent.MessageStart("msg_1", "gw", Usage.of(10, 0));

    private static String write(List<StreamEvent> events) {
        AnthropicClientStreamWriter writer = new AnthropicClientStreamWriter();
        StringBuilder out = new StringBuilder();
        events.forEach(e -> out.append(writer.write(e)));
        return out.toString();
    }

    private static List<JsonNode> payloads(String sse) {
        return Golden.events(sse).stream().map(e -> Json.parse(e.data())).toList();
    }

    @Test
    void streamedDeltasAreTheBytesOfTheDeltaTree() {
        String tricky = "line one\nline \"two\"\r\n\ttab \\ back \u0001 é 中文 🚀 </script>";
        AnthropicClientStreamWriter w = new AnthropicClientStreamWriter();
        w.write(new StreamEvent.MessageStart("msg_1", "claude-x", Usage.EMPTY));
        w.write(new BlockStart(0, new ContentBlock.Thinking("", Optional.empty())));
        String thinking = w.write(new BlockDelta(0, new Delta.ThinkingDelta(tricky)));
        w.write(new BlockStart(1, ContentBlock.Text.of("")));
        String text = w.write(new BlockDelta(1, new Delta.TextDelta(tricky)));
        w.write(new BlockStart(2, new ContentBlock.ToolCall("toolu_1", "f", "", Optional.empty())));
        String args = w.write(new BlockDelta(2, new Delta.ArgumentsDelta("{\"q\": \"" + tricky.replace("\"", "'") + "\"")));

        assertThat(thinking).isEqualTo(deltaFrame(0, "thinking_delta", "thinking", tricky));
        assertThat(text).isEqualTo(deltaFrame(1, "text_delta", "text", tricky));
        assertThat(args).isEqualTo(deltaFrame(2, "input_json_delta", "partial_json",
                "{\"q\": \"" + tricky.replace("\"", "'") + "\""));
    }

    private static String deltaFrame(int index, String type, String field, String value) {
        com.fasterxml.jackson.databind.node.ObjectNode payload = Json.object().put("type", "content_block_delta").put("index", index);
        payload.set("delta", Json.object().put("type", type).put(field, value));
        return dev.switchboard.wire.sse.SseFrames.event("content_block_delta", Json.write(payload));
    }

    @Test
    void hiddenBlocksAreSkippedAndIndexesStayContiguous() {
        String sse = write(List.of(START,
                new BlockStart(0, new ContentBlock.Opaque("gemini", Json.object())),
                new BlockStop(0),
                new BlockStart(1, new ContentBlock.RedactedThinking("enc", "openai")),
                new BlockStop(1),
                new BlockStart(2, ContentBlock.Text.of("")),
                new BlockDelta(2, new Delta.TextDelta("a")),
                new BlockDelta(0, new Delta.TextDelta("for a hidden block")),
                new BlockStop(2),
                new BlockStart(3, new ContentBlock.RedactedThinking("claude", "anthropic")),
                new BlockStop(3),
                new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(10, 3)),
                new StreamEvent.MessageStop()));

        List<SseEvent> events = Golden.events(sse);
        AnthropicSseMessages.assertWellFormed(events);
        JsonNode message = AnthropicSseMessages.accumulate(events);
        assertThat(Json.write(message.get("content"))).isEqualTo("[{\"type\":\"redacted_thinking\",\"data\":\""
                + ForeignSignatures.encode(new Signature("openai", "enc")) + "\"},"
                + "{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"redacted_thinking\",\"data\":\"claude\"}]");
    }

    @Test
    void onlyTheLastSignatureIsSentJustBeforeTheStopAndAnthropicsIsNeverReplacedByAForeignOne() {
        String sse = write(List.of(START,
                new BlockStart(0, new ContentBlock.Thinking("pre", Optional.of(new Signature("anthropic", "early")))),
                new BlockDelta(0, new Delta.ThinkingDelta("thought")),
                new BlockDelta(0, new Delta.SignatureDelta(new Signature("anthropic", "final"))),
                new BlockDelta(0, new Delta.SignatureDelta(new Signature("gemini", "not for claude"))),
                new BlockStop(0),
                new BlockStart(1, new ContentBlock.Thinking("foreign", Optional.of(new Signature("gemini", "g")))),
                new BlockStop(1),
                new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(10, 3)),
                new StreamEvent.MessageStop()));

        List<SseEvent> events = Golden.events(sse);
        AnthropicSseMessages.assertWellFormed(events);
        assertThat(sse).doesNotContain("early").doesNotContain("\"g\"")
                .doesNotContain(ForeignSignatures.encode(new Signature("gemini", "not for claude")));
        assertThat(Json.write(AnthropicSseMessages.accumulate(events).get("content"))).isEqualTo(
                "[{\"type\":\"thinking\",\"thinking\":\"prethought\",\"signature\":\"final\"},"
                        + "{\"type\":\"thinking\",\"thinking\":\"foreign\",\"signature\":\""
                        + ForeignSignatures.encode(new Signature("gemini", "g")) + "\"}]");
    }

    @Test
    void aStreamWithoutMessageDeltaOrStopsStillEndsWithUsage() {
        String sse = write(List.of(START,
                new BlockStart(0, ContentBlock.ToolCall.of("call_1", "f", "{\"a\":")),
                new BlockDelta(0, new Delta.ArgumentsDelta("1}")),
                new StreamEvent.MessageStop()));

        List<SseEvent> events = Golden.events(sse);
        AnthropicSseMessages.assertWellFormed(events);
        JsonNode message = AnthropicSseMessages.accumulate(events);
        assertThat(message.at("/content/0/input")).isEqualTo(Json.parse("{\"a\":1}"));
        assertThat(message.get("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(message.at("/usage/input_tokens").asInt()).isEqualTo(10);
    }

    @Test
    void anErrorEndsTheStreamAndNothingFollows() {
        AnthropicClientStreamWriter writer = new AnthropicClientStreamWriter();
        writer.write(START);
        writer.write(new BlockStart(0, ContentBlock.Text.of("")));

        String error = writer.write(new StreamEvent.StreamError(GatewayError.upstreamUnavailable("The provider failed.")));

        assertThat(error).isEqualTo("event: error\ndata: {\"type\":\"error\",\"error\":{\"message\":\"The provider failed.\","
                + "\"type\":\"api_error\",\"param\":null,\"code\":\"503\"}}\n\n");
        assertThat(writer.finished()).isTrue();
        assertThat(writer.write(new BlockDelta(0, new Delta.TextDelta("late")))).isEmpty();
        assertThat(writer.write(new StreamEvent.MessageStop())).isEmpty();
    }

    @Test
    void eventsBeforeMessageStartStillGiveAWellFormedStream() {
        AnthropicClientStreamWriter writer = new AnthropicClientStreamWriter();
        String sse = writer.write(new StreamEvent.BlockStart(0, ContentBlock.Text.of("")))
                + writer.write(new BlockDelta(0, new Delta.TextDelta("hi")))
                + writer.write(new BlockStop(0))
                + writer.write(new StreamEvent.MessageStart("late", "m", Usage.EMPTY))
                + writer.write(new StreamEvent.MessageStop());
        List<SseEvent> events = Golden.events(sse);
        AnthropicSseMessages.assertWellFormed(events);
        assertThat(events).filteredOn(e -> e.event().orElseThrow().equals("message_start")).hasSize(1);
        assertThat(AnthropicSseMessages.accumulate(events).at("/content/0/text").asText()).isEqualTo("hi");

        List<SseEvent> error = Golden.events(new AnthropicClientStreamWriter().write(
                new StreamEvent.StreamError(GatewayError.internal("x"))));
        AnthropicSseMessages.assertWellFormed(error);
        assertThat(error).extracting(e -> e.event().orElseThrow()).containsExactly("message_start", "error");
    }

    @Test
    void pingIsAnthropicsKeepAlive() {
        assertThat(AnthropicClientStreamWriter.ping()).isEqualTo("event: ping\ndata: {\"type\":\"ping\"}\n\n");
    }

    // ---- parser

    private static List<StreamEvent> parse(String... eventsAndData) {
        AnthropicUpstreamStreamParser parser = new AnthropicUpstreamStreamParser();
        List<StreamEvent> out = new ArrayList<>();
        for (int i = 0; i < eventsAndData.length; i += 2) {
            out.addAll(parser.onEvent(Optional.ofNullable(eventsAndData[i]), eventsAndData[i + 1]));
        }
        out.addAll(parser.onEnd());
        return out;
    }

    private static final String MESSAGE_START = "{\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"model\":\"c\","
            + "\"usage\":{\"input_tokens\":5,\"cache_creation_input_tokens\":10,\"cache_read_input_tokens\":20,\"output_tokens\":1}}}";

    @Test
    void aCutStreamEndsWithARetryableErrorButAnEmptyOneWithNothing() {
        List<StreamEvent> cut = parse("message_start", MESSAGE_START);

        assertThat(cut).hasSize(2);
        assertThat(cut.get(0)).isEqualTo(new StreamEvent.MessageStart("m1", "c",
                new Usage(35, 1, 0, 20, 10, 0, Usage.Provenance.REPORTED)));
        StreamEvent.StreamError error = (StreamEvent.StreamError) cut.get(1);
        assertThat(error.error().status()).isEqualTo(502);
        assertThat(error.error().retryable()).isTrue();
        assertThat(error.error().message()).contains("message_stop");

        assertThat(parse("ping", "{\"type\":\"ping\"}")).isEmpty();
    }

    @Test
    void inBandErrorsTakeTheStatusOfTheirType() {
        for (String[] c : new String[][] {{"overloaded_error", "529"}, {"rate_limit_error", "429"},
                {"api_error", "500"}, {"invalid_request_error", "400"}, {"brand_new_error", "500"}}) {
            List<StreamEvent> events = parse("message_start", MESSAGE_START,
                    "error", "{\"type\":\"error\",\"error\":{\"type\":\"" + c[0] + "\",\"message\":\"m\"}}",
                    "message_stop", "{\"type\":\"message_stop\"}");

            assertThat(events).hasSize(2);
            GatewayError error = ((StreamEvent.StreamError) events.get(1)).error();
            assertThat(error.status()).as(c[0]).isEqualTo(Integer.parseInt(c[1]));
            assertThat(error.message()).isEqualTo("m");
        }
    }

    @Test
    void garbageIsARetryable502AndUnknownEventsAreIgnored() {
        List<StreamEvent> events = parse("message_start", MESSAGE_START,
                "brand_new", "{\"type\":\"brand_new\"}",
                null, "not json");

        assertThat(events).hasSize(2);
        assertThat(((StreamEvent.StreamError) events.get(1)).error().status()).isEqualTo(502);
    }

    @Test
    void thePayloadTypeDecidesAndTheEventNameStandsInWhenItIsMissing() {
        List<StreamEvent> events = parse(
                "message_start", MESSAGE_START,
                "content_block_start", "{\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
                "content_block_delta", "{\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}",
                null, "{\"type\":\"content_block_stop\",\"index\":0}",
                "message_delta", "{\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":9}}",
                "message_stop", "{}");

        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        assertThat(acc.complete()).isTrue();
        assertThat(acc.response().text()).isEqualTo("hi");
        assertThat(acc.response().stopReason()).isEqualTo(StopReason.MAX_TOKENS);
        assertThat(acc.usage()).isEqualTo(new Usage(35, 9, 0, 20, 10, 0, Usage.Provenance.REPORTED));
    }

    @Test
    void toolInputArrivesOnlyThroughSlices() {
        List<StreamEvent> events = parse(
                "message_start", MESSAGE_START,
                "content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                        + "{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"f\",\"input\":{}}}",
                "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                        + "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":\"}}",
                "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                        + "{\"type\":\"input_json_delta\",\"partial_json\":\"2}\"}}",
                "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}",
                // a proxy that puts the whole input in the start and sends no slices
                "content_block_start", "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":"
                        + "{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"g\",\"input\":{\"b\":true}}}",
                "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}",
                "message_stop", "{\"type\":\"message_stop\"}");

        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        assertThat(acc.response().content()).containsExactly(
                ContentBlock.ToolCall.of("t1", "f", "{\"a\":2}"),
                ContentBlock.ToolCall.of("t2", "g", "{\"b\":true}"));
    }
}
