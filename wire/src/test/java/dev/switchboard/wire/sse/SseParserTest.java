package dev.switchboard.wire.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.GatewayException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SseParserTest {

    private static List<SseEvent> parseAll(SseParser p, byte[] bytes, int chunk) {
        List<SseEvent> out = new ArrayList<>();
        for (int i = 0; i < bytes.length; i += chunk) {
            out.addAll(p.feed(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + chunk))));
        }
        out.addAll(p.finish());
        return out;
    }

    @Test
    void parsesDataEventsAndIgnoresComments() {
        String body = ": OPENROUTER PROCESSING\n\ndata: {\"a\":1}\n\n: ping\ndata: [DONE]\n\n";
        List<SseEvent> events = parseAll(new SseParser(), body.getBytes(StandardCharsets.UTF_8), 1 << 20);
        assertThat(events).containsExactly(SseEvent.data("{\"a\":1}"), SseEvent.data("[DONE]"));
        assertThat(events.get(1).isDone()).isTrue();
    }

    @Test
    void namedEventsWithIdAndMultiLineData() {
        String body = "event: message_start\nid: 7\ndata: line one\ndata:line two\ndata\n\n";
        List<SseEvent> events = parseAll(new SseParser(), body.getBytes(StandardCharsets.UTF_8), 1 << 20);
        assertThat(events).containsExactly(
                new SseEvent(Optional.of("message_start"), "line one\nline two\n", Optional.of("7")));
    }

    @Test
    void everySplitPointAndEveryLineEndingGiveTheSameEvents() {
        String template = "event: x\ndata: héllo €\ndata:  two spaces keep one\n\ndata: 😀\n\n";
        List<SseEvent> expected = List.of(
                new SseEvent(Optional.of("x"), "héllo €\n two spaces keep one", Optional.empty()),
                SseEvent.data("😀"));
        for (String eol : List.of("\n", "\r\n", "\r")) {
            byte[] bytes = template.replace("\n", eol).getBytes(StandardCharsets.UTF_8);
            for (int chunk = 1; chunk <= bytes.length; chunk++) {
                assertThat(parseAll(new SseParser(), bytes, chunk))
                        .as("eol %s, chunk %d", eol.replace("\r", "CR").replace("\n", "LF"), chunk)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void finishFlushesAnEventWithoutTrailingBlankLine() {
        SseParser p = new SseParser();
        assertThat(p.feed("data: {\"last\":true}")).isEmpty();
        assertThat(p.finish()).containsExactly(SseEvent.data("{\"last\":true}"));
        assertThat(p.finish()).isEmpty();
    }

    @Test
    void blockWithoutDataDispatchesNothing() {
        assertThat(parseAll(new SseParser(), "event: ping\n\nretry: 10\n\n".getBytes(StandardCharsets.UTF_8), 3))
                .isEmpty();
    }

    @Test
    void emptyDataLineIsAnEventWithEmptyData() {
        assertThat(parseAll(new SseParser(), "data:\n\n".getBytes(StandardCharsets.UTF_8), 1))
                .containsExactly(SseEvent.data(""));
    }

    @Test
    void leadingByteOrderMarkIsSkipped() {
        byte[] bytes = "\uFEFFdata: x\n\n".getBytes(StandardCharsets.UTF_8);
        assertThat(parseAll(new SseParser(), bytes, 1)).containsExactly(SseEvent.data("x"));
    }

    @Test
    void lineByLineFeeding() {
        SseParser p = new SseParser();
        assertThat(p.line("data: a")).isEmpty();
        assertThat(p.line(": comment")).isEmpty();
        assertThat(p.line("data: b")).isEmpty();
        assertThat(p.line("")).contains(SseEvent.data("a\nb"));
    }

    @Test
    void oversizedEventFailsRetryably() {
        SseParser p = new SseParser(16);
        assertThatThrownBy(() -> p.feed("data: 0123456789abcdef\n"))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(502);
                    assertThat(e.error().retryable()).isTrue();
                });
    }

    @Test
    void sizeLimitCountsPerEventNotPerStream() {
        SseParser p = new SseParser(16);
        for (int i = 0; i < 10; i++) {
            assertThat(p.feed("data: 0123456\n\n")).hasSize(1);
        }
    }

    @Test
    void framesRoundTripThroughTheParser() {
        String frames = SseFrames.comment("keep-alive") + SseFrames.data("{\"x\":\"a\"}")
                + SseFrames.event("message_delta", "multi\nline\r\npayload") + SseFrames.DONE;
        assertThat(frames).startsWith(": keep-alive\n\ndata: {\"x\":\"a\"}\n\nevent: message_delta\n");
        List<SseEvent> events = parseAll(new SseParser(), SseFrames.bytes(frames), 5);
        assertThat(events).containsExactly(
                SseEvent.data("{\"x\":\"a\"}"),
                new SseEvent(Optional.of("message_delta"), "multi\nline\npayload", Optional.empty()),
                SseEvent.data("[DONE]"));
    }

    @Test
    void eventNameMustBeOneLine() {
        assertThatThrownBy(() -> SseFrames.event("a\nb", "{}")).isInstanceOf(IllegalArgumentException.class);
    }
}
