package dev.switchboard.wire.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class OpenAiUpstreamStreamParserTest {

    private static String chunk(String delta) {
        return chunk(delta, "null");
    }

    private static String chunk(String delta, String finish) {
        return "{\"id\":\"c1\",\"model\":\"m\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":"
                + delta + ",\"finish_reason\":" + finish + "}]}";
    }

    private static List<StreamEvent> feed(OpenAiUpstreamStreamParser p, String... data) {
        List<StreamEvent> out = new ArrayList<>();
        for (String d : data) {
            out.addAll(p.onData(d));
        }
        out.addAll(p.onEnd());
        return out;
    }

    private static ChatResponse fold(List<StreamEvent> events) {
        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        return acc.response();
    }

    /** Canonical blocks never overlap: each BlockStart follows the previous block's BlockStop. */
    private static void assertSequentialBlocks(List<StreamEvent> events) {
        int open = -1;
        int next = 0;
        for (StreamEvent e : events) {
            if (e instanceof StreamEvent.BlockStart s) {
                assertThat(open).as("block %d starts while %d is open", s.index(), open).isEqualTo(-1);
                assertThat(s.index()).isEqualTo(next++);
                open = s.index();
            } else if (e instanceof StreamEvent.BlockDelta d) {
                assertThat(d.index()).as("delta outside its block").isEqualTo(open);
            } else if (e instanceof StreamEvent.BlockStop s) {
                assertThat(s.index()).isEqualTo(open);
                open = -1;
            }
        }
        assertThat(open).as("a block was left open").isEqualTo(-1);
    }

    /**
     * Any interleaving of the fragments of parallel tool calls yields each call's arguments intact, in
     * non-overlapping blocks ordered by first appearance.
     */
    @RepeatedTest(200)
    void interleavedToolCallFragmentsAreNeverLostOrMixed(RepetitionInfo info) {
        Random rnd = new Random(info.getCurrentRepetition());
        int calls = 1 + rnd.nextInt(4);
        Map<Integer, String> args = new HashMap<>();
        List<List<String>> fragments = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            String a = "{\"n\":" + i + ",\"text\":\"" + "x".repeat(rnd.nextInt(30)) + "é\"}";
            args.put(i, a);
            List<String> parts = new ArrayList<>();
            int pos = 0;
            while (pos < a.length()) {
                int len = 1 + rnd.nextInt(6);
                parts.add(a.substring(pos, Math.min(a.length(), pos + len)));
                pos += len;
            }
            fragments.add(parts);
        }
        List<String> data = new ArrayList<>();
        int[] next = new int[calls];
        boolean[] started = new boolean[calls];
        List<Integer> firstSeen = new ArrayList<>();
        while (true) {
            List<Integer> pending = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                if (next[i] < fragments.get(i).size()) {
                    pending.add(i);
                }
            }
            if (pending.isEmpty()) {
                break;
            }
            int i = pending.get(rnd.nextInt(pending.size()));
            String slice = fragments.get(i).get(next[i]++).replace("\\", "\\\\").replace("\"", "\\\"");
            String head = started[i] ? "" : ",\"id\":\"call_" + i + "\",\"type\":\"function\"";
            String name = started[i] ? "" : "\"name\":\"fn" + i + "\",";
            if (!started[i]) {
                firstSeen.add(i);
            }
            started[i] = true;
            data.add(chunk("{\"tool_calls\":[{\"index\":" + i + head + ",\"function\":{" + name + "\"arguments\":\""
                    + slice + "\"}}]}"));
        }
        data.add(chunk("{}", "\"tool_calls\""));
        data.add("[DONE]");

        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(), data.toArray(String[]::new));
        assertSequentialBlocks(events);
        ChatResponse r = fold(events);
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(r.content()).hasSize(calls);
        for (int b = 0; b < calls; b++) {
            int call = firstSeen.get(b);
            ContentBlock.ToolCall c = (ContentBlock.ToolCall) r.content().get(b);
            assertThat(c.id()).isEqualTo("call_" + call);
            assertThat(c.name()).isEqualTo("fn" + call);
            assertThat(c.argumentsJson()).isEqualTo(args.get(call));
        }
    }

    @Test
    void theFirstToolCallStreamsLiveBeforeTheAnswerEnds() {
        OpenAiUpstreamStreamParser p = new OpenAiUpstreamStreamParser();
        p.onData(chunk("{\"role\":\"assistant\",\"content\":\"\"}"));
        List<StreamEvent> events = p.onData(chunk(
                "{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"x\\\"\"}}]}"));
        assertThat(events).containsExactly(
                new StreamEvent.BlockStart(0, ContentBlock.ToolCall.of("a", "f", "")),
                new StreamEvent.BlockDelta(0, new StreamEvent.Delta.ArgumentsDelta("{\"x\"")));
    }

    @Test
    void fragmentsWithoutIndexAreGroupedById() {
        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(),
                chunk("{\"tool_calls\":[{\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":\"}}]}"),
                chunk("{\"tool_calls\":[{\"function\":{\"arguments\":\"1}\"}}]}"),
                chunk("{\"tool_calls\":[{\"id\":\"b\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}"),
                chunk("{}", "\"tool_calls\""), "[DONE]");
        assertSequentialBlocks(events);
        assertThat(fold(events).content()).containsExactly(
                ContentBlock.ToolCall.of("a", "f", "{\"a\":1}"), ContentBlock.ToolCall.of("b", "g", "{}"));
    }

    @Test
    void errorBeforeTheFirstChunkComesAloneSoTheEngineCanFailOver() {
        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(),
                "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\",\"code\":503}}");
        assertThat(events).hasSize(1);
        StreamEvent.StreamError e = (StreamEvent.StreamError) events.get(0);
        assertThat(e.error().status()).isEqualTo(503);
        assertThat(e.error().retryable()).isTrue();
        assertThat(e.error().message()).isEqualTo("overloaded");
    }

    @Test
    void anEmptyBodyYieldsNoEventsSoTheEngineSeesAnEmptyStream() {
        OpenAiUpstreamStreamParser p = new OpenAiUpstreamStreamParser();
        assertThat(p.onEnd()).isEmpty();
        assertThat(p.onData("{\"id\":\"x\",\"choices\":[]}")).isEmpty();
    }

    @Test
    void malformedChunkEndsTheStreamWithAnError() {
        OpenAiUpstreamStreamParser p = new OpenAiUpstreamStreamParser();
        p.onData(chunk("{\"content\":\"a\"}"));
        List<StreamEvent> events = p.onData("{not json");
        assertThat(events).last().isInstanceOf(StreamEvent.StreamError.class);
        assertThat(events).first().isEqualTo(new StreamEvent.BlockStop(0));
        assertThat(p.onData(chunk("{\"content\":\"b\"}"))).isEmpty();
        assertThat(p.onEnd()).isEmpty();
    }

    @Test
    void doneWithoutFinishReasonEndsNormallyAndToolCallsMeanToolUse() {
        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(),
                chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}"),
                "[DONE]");
        StreamEvent.MessageDelta d = (StreamEvent.MessageDelta) events.get(events.size() - 2);
        assertThat(d.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(d.usage().provenance()).isEqualTo(Usage.Provenance.ESTIMATED);
        assertThat(events).last().isEqualTo(new StreamEvent.MessageStop());
    }

    @Test
    void nothingAfterTheEnd() {
        OpenAiUpstreamStreamParser p = new OpenAiUpstreamStreamParser();
        p.onData(chunk("{\"content\":\"a\"}", "\"stop\""));
        assertThat(p.onData("[DONE]")).isNotEmpty();
        assertThat(p.onData(chunk("{\"content\":\"late\"}"))).isEmpty();
        assertThat(p.onData("[DONE]")).isEmpty();
        assertThat(p.onEnd()).isEmpty();
    }

    @Test
    void aFragmentForACallAlreadyEmittedWholeIsAnErrorNotAMix() {
        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(),
                chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]}"),
                chunk("{\"content\":\"interleaved text\"}"),
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"}\"}}]}"));
        assertThat(events).last().isInstanceOf(StreamEvent.StreamError.class);
        assertSequentialBlocks(events);
    }

    @Test
    void usageArrivingWithTheFinishChunkOrLaterIsKept() {
        String usage = "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":4}}";
        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(),
                chunk("{\"content\":\"hi\"}", "\"stop\""),
                "{\"id\":\"c1\",\"choices\":[]," + usage + "}", "[DONE]");
        StreamEvent.MessageDelta d = (StreamEvent.MessageDelta) events.get(events.size() - 2);
        assertThat(d.usage()).isEqualTo(new Usage(10, 5, 0, 4, 0, 0, Usage.Provenance.REPORTED));
    }

    @Test
    void refusalDeltasAreARefusalBlockAndAPlainStopBecomesRefusal() {
        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(),
                chunk("{\"content\":\"Well. \"}"), chunk("{\"refusal\":\"I can\"}"), chunk("{\"refusal\":\"'t\"}"),
                chunk("{}", "\"stop\""), "[DONE]");
        ChatResponse r = fold(events);
        assertThat(r.content()).containsExactly(ContentBlock.Text.of("Well. "), new ContentBlock.Refusal("I can't"));
        assertThat(r.stopReason()).isEqualTo(StopReason.REFUSAL);
    }

    @Test
    void vllmStopReasonNamesTheStopSequence() {
        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(),
                chunk("{\"content\":\"a\"}"),
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\",\"stop_reason\":\"END\"}]}",
                "[DONE]");
        StreamEvent.MessageDelta d = (StreamEvent.MessageDelta) events.get(events.size() - 2);
        assertThat(d.stopReason()).isEqualTo(StopReason.STOP_SEQUENCE);
        assertThat(d.stopSequence()).contains("END");
    }

    @Test
    void otherChoicesThanTheFirstAreIgnored() {
        List<StreamEvent> events = feed(new OpenAiUpstreamStreamParser(),
                "{\"id\":\"c\",\"choices\":[{\"index\":1,\"delta\":{\"content\":\"B\"}},{\"index\":0,\"delta\":{\"content\":\"A\"}}]}",
                chunk("{}", "\"stop\""), "[DONE]");
        assertThat(fold(events).text()).isEqualTo("A");
    }
}
