package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GeminiUpstreamStreamParserTest {

    private static List<StreamEvent> parse(String... chunks) {
        GeminiUpstreamStreamParser parser = new GeminiUpstreamStreamParser();
        List<StreamEvent> events = new ArrayList<>();
        for (String c : chunks) {
            events.addAll(parser.onEvent(Optional.empty(), c));
        }
        events.addAll(parser.onEnd());
        return events;
    }

    private static String chunk(String parts, String extra) {
        return "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[" + parts + "]}" + extra + "}],\"responseId\":\"r\"}";
    }

    @Test
    void aStreamCutBeforeItsFinishReasonEndsInAnErrorNotSilently() {
        List<StreamEvent> events = parse(chunk("{\"text\":\"Hel\"}", ""));

        assertThat(events.getLast()).isInstanceOfSatisfying(StreamEvent.StreamError.class, e -> {
            assertThat(e.error().status()).isEqualTo(502);
            assertThat(e.error().retryable()).isTrue();
        });
        assertThat(events).noneMatch(e -> e instanceof StreamEvent.MessageStop);
    }

    @Test
    void anEmptyStreamProducesNothingSoTheEngineCanTryElsewhere() {
        assertThat(parse()).isEmpty();
        assertThat(parse("", " ")).isEmpty();
    }

    @Test
    void anErrorFirstIsOnlyAnError() {
        List<StreamEvent> events = parse("{\"error\":{\"code\":429,\"message\":\"quota\",\"status\":\"RESOURCE_EXHAUSTED\"}}",
                chunk("{\"text\":\"late\"}", ",\"finishReason\":\"STOP\""));

        assertThat(events).hasSize(1);
        assertThat(((StreamEvent.StreamError) events.get(0)).error().status()).isEqualTo(429);
    }

    @Test
    void aMalformedChunkIsARetryableError() {
        List<StreamEvent> events = parse(chunk("{\"text\":\"a\"}", ""), "{not json");

        assertThat(events.getLast()).isInstanceOf(StreamEvent.StreamError.class);
        assertThat(events.stream().filter(e -> e instanceof StreamEvent.StreamError)).hasSize(1);
    }

    @Test
    void textMergesButASignedPartStaysABlockOfItsOwn() {
        ChatResponse r = GeminiFixtures.accumulate(parse(
                chunk("{\"text\":\"a\"},{\"text\":\"b\"}", ""),
                chunk("{\"text\":\"c\",\"thoughtSignature\":\"S\"},{\"text\":\"d\"}", ",\"finishReason\":\"STOP\"")));

        assertThat(r.content()).containsExactly(
                ContentBlock.Text.of("ab"),
                new ContentBlock.Text("c", Optional.empty(), Optional.of(new Signature("gemini", "S"))),
                ContentBlock.Text.of("d"));
        assertThat(r.stopReason()).isEqualTo(StopReason.END_TURN);
    }

    @Test
    void aChangeOfKindClosesTheOpenBlock() {
        ChatResponse r = GeminiFixtures.accumulate(parse(
                chunk("{\"text\":\"t1\",\"thought\":true},{\"text\":\"x\"},{\"text\":\"t2\",\"thought\":true}",
                        ",\"finishReason\":\"STOP\"")));

        assertThat(r.content()).containsExactly(ContentBlock.Thinking.of("t1"), ContentBlock.Text.of("x"),
                ContentBlock.Thinking.of("t2"));
    }

    @Test
    void generatedCallIdsAreDeterministicAndDifferBetweenAnswers() {
        String call = "{\"functionCall\":{\"name\":\"f\",\"args\":{}}}";
        String noId = "{\"candidates\":[{\"content\":{\"parts\":[" + call + "," + call + "]},\"finishReason\":\"STOP\"}]}";
        String otherNoId = "{\"candidates\":[{\"content\":{\"parts\":[" + call + "]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{}}";

        ChatResponse first = Gemini.fromUpstream(Json.parse(noId));
        ChatResponse again = Gemini.fromUpstream(Json.parse(noId));
        ChatResponse other = Gemini.fromUpstream(Json.parse(otherNoId));

        List<String> ids = first.content().stream().map(b -> ((ContentBlock.ToolCall) b).id()).toList();
        assertThat(ids).doesNotHaveDuplicates().allMatch(id -> id.matches("call_[A-Za-z0-9_-]+"));
        assertThat(again.content()).isEqualTo(first.content());
        assertThat(((ContentBlock.ToolCall) other.content().get(0)).id()).isNotEqualTo(ids.get(0));
        assertThat(first.stopReason()).isEqualTo(StopReason.TOOL_USE);
    }

    @Test
    void missingUsageIsMarkedEstimated() {
        ChatResponse r = Gemini.fromUpstream(Json.parse(chunk("{\"text\":\"a\"}", ",\"finishReason\":\"STOP\"")));

        assertThat(r.usage().provenance()).isEqualTo(Usage.Provenance.ESTIMATED);
    }

    @Test
    void aWholeAnswerWithAnErrorThrowsIt() {
        GatewayException e = catchThrowableOfType(GatewayException.class, () -> Gemini.fromUpstream(
                Json.parse("{\"error\":{\"code\":500,\"message\":\"boom\",\"status\":\"INTERNAL\"}}")));

        assertThat(e.error().status()).isEqualTo(500);
        assertThat(e.error().message()).isEqualTo("boom");
    }

    @Test
    void otherFinishReasonsMap() {
        assertThat(GeminiFinishReasons.fromWire("RECITATION", false)).isEqualTo(StopReason.REFUSAL);
        assertThat(GeminiFinishReasons.fromWire("MALFORMED_FUNCTION_CALL", true)).isEqualTo(StopReason.OTHER);
        assertThat(GeminiFinishReasons.fromWire("MAX_TOKENS", true)).isEqualTo(StopReason.MAX_TOKENS);
        assertThat(GeminiFinishReasons.toWire(StopReason.PAUSE_TURN)).isEqualTo("OTHER");
        assertThat(GeminiFinishReasons.toWire(StopReason.STOP_SEQUENCE)).isEqualTo("STOP");
    }
}
