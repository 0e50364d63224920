package dev.switchboard.wire.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.testing.Golden;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pieces the fixtures do not reach: the payload codec's edges, item ids, caller item order, writer edges. */
class ResponsesPartsTest {
    private static final Signature ANTHROPIC = new Signature("anthropic", "EqQB/+==");

    @Test
    void payloadsRoundTrip() {
        List<ResponsesReasoningPayload> all = List.of(new ResponsesReasoningPayload.Own(ANTHROPIC),
                new ResponsesReasoningPayload.Redacted("RXJy", "anthropic"),
                new ResponsesReasoningPayload.OnCall("call_1", new Signature("gemini", "CiQB")),
                new ResponsesReasoningPayload.OnText(new Signature("gemini", "CiQC")));
        for (ResponsesReasoningPayload p : all) {
            String encoded = ResponsesReasoningPayload.encode(p);
            assertThat(encoded).startsWith(ResponsesReasoningPayload.PREFIX).doesNotContain("=", "+", "/");
            assertThat(ResponsesReasoningPayload.decode(encoded)).isEqualTo(p);
        }
    }

    @Test
    void valuesWeDidNotWriteAreKeptVerbatim() {
        for (String v : List.of("gAAAAABopaque", "sb1.!!notbase64", "sb1." + "eyJrIjoib3duIn0", "sb1.")) {
            assertThat(ResponsesReasoningPayload.decode(v)).isEqualTo(new ResponsesReasoningPayload.Foreign(v));
            assertThat(ResponsesReasoningPayload.encode(ResponsesReasoningPayload.decode(v))).isEqualTo(v);
        }
    }

    @Test
    void aCallSignatureFoundBeforeItsCallStillReachesIt() {
        String carrier = ResponsesReasoningPayload.encode(new ResponsesReasoningPayload.OnCall("call_1", new Signature("gemini", "CiQB")));
        ResponsesRequest r = request("""
                {"model": "m", "input": [
                  {"role": "user", "content": "hi"},
                  {"type": "reasoning", "summary": [], "encrypted_content": "%s"},
                  {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"},
                  {"type": "function_call_output", "call_id": "call_1", "output": "ok"}]}
                """.formatted(carrier));
        ChatRequest c = Responses.toCanonical(r, List.of());
        assertThat(c.messages().get(1).content()).containsExactly(
                new ContentBlock.ToolCall("call_1", "f", "{}", Optional.of(new Signature("gemini", "CiQB"))));
    }

    @Test
    void anInputItemThatRepeatsTheHistoryIsRefused() {
        List<ResponsesItem> history = Responses.withIds(request("{\"model\":\"m\",\"input\":\"first\"}").input(), p -> p + "_old");
        ResponsesRequest again = request("""
                {"model": "m", "previous_response_id": "resp_1",
                 "input": [{"type": "message", "id": "msg_new", "role": "user", "content": "fine"},
                           {"type": "message", "id": "msg_old", "role": "user", "content": "first"}]}
                """);
        assertThatThrownBy(() -> Responses.toCanonical(again, history))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().param()).contains("input[1].id");
                    assertThat(e.error().message()).contains("Duplicate item found with id msg_old");
                });
        assertThat(Responses.toCanonical(request("{\"model\":\"m\",\"input\":\"next\"}"), history).messages())
                .extracting(dev.switchboard.model.Message::text).containsExactly("first", "next");
    }

    @Test
    void idsAreGivenByKindAndCallerIdsAreKept() {
        ResponsesRequest r = request("""
                {"model": "m", "input": [
                  {"role": "user", "content": "hi"},
                  {"type": "message", "id": "msg_mine", "role": "assistant", "content": "yo"},
                  {"type": "function_call", "call_id": "c", "name": "f"},
                  {"type": "function_call_output", "call_id": "c", "output": "ok"},
                  {"type": "reasoning", "summary": []}]}
                """);
        List<ResponsesItem> items = Responses.withIds(r.input(), new ResponsesCountingIds());
        assertThat(items).extracting(i -> i.id().orElseThrow())
                .containsExactly("msg_1", "msg_mine", "fc_2", "fco_3", "rs_4");
    }

    @Test
    void storedItemsReadBackAsTheyWereWritten() {
        ResponsesRequest r = request("""
                {"model": "m", "input": [
                  {"role": "user", "content": [{"type": "input_text", "text": "a"},
                    {"type": "input_image", "image_url": "https://x/y.png"},
                    {"type": "input_file", "file_id": "file-1", "filename": "a.pdf"}]},
                  {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
                  {"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text", "text": "r"}]},
                  {"type": "reasoning", "summary": [{"type": "summary_text", "text": "s"}],
                   "content": [{"type": "reasoning_text", "text": "raw"}], "encrypted_content": "e"}]}
                """);
        for (ResponsesItem item : Responses.withIds(r.input(), new ResponsesCountingIds())) {
            ObjectNode json = Responses.writeItem(item);
            assertThat(Responses.readItem(Json.parse(Json.write(json)), "x")).isEqualTo(item);
        }
    }

    @Test
    void nothingIsWrittenAfterTheTerminalEvent() {
        ResponsesStreamWriter w = writer();
        w.write(new StreamEvent.MessageStart("x", "m", Usage.EMPTY));
        w.write(new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(1, 1)));
        assertThat(w.write(new StreamEvent.MessageStop())).contains("event: response.completed");
        assertThat(w.finished()).isTrue();
        assertThat(w.write(new StreamEvent.BlockStart(0, ContentBlock.Text.of("late")))).isEmpty();
        assertThat(w.terminalResponse().orElseThrow().path("usage").path("total_tokens").asInt()).isEqualTo(2);
    }

    @Test
    void aStreamThatSkipsMessageStartStillBeginsWithCreated() {
        ResponsesStreamWriter w = writer();
        String sse = w.write(new StreamEvent.BlockStart(0, ContentBlock.Text.of("")));
        assertThat(Golden.events(sse)).extracting(e -> e.event().orElseThrow())
                .startsWith("response.created", "response.in_progress", "response.output_item.added");
    }

    @Test
    void anAbandonedStreamIsCancelledWithItsUnfinishedItemsIncomplete() {
        ResponsesStreamWriter w = writer();
        w.write(new StreamEvent.MessageStart("x", "m", Usage.of(7, 0)));
        w.write(new StreamEvent.BlockStart(0, ContentBlock.Text.of("")));
        w.write(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("partial")));
        ObjectNode r = w.cancelled();
        assertThat(r.path("status").asText()).isEqualTo("cancelled");
        assertThat(r.at("/output/0/status").asText()).isEqualTo("incomplete");
        assertThat(r.at("/output/0/content/0/text").asText()).isEqualTo("partial");
        assertThat(r.at("/usage/input_tokens").asInt()).isEqualTo(7);
        assertThat(w.terminalResponse()).isEmpty();
    }

    @Test
    void itemListNamesItsEnds() {
        List<ResponsesItem> items = Responses.withIds(request("{\"model\":\"m\",\"input\":\"a\"}").input(), p -> p + "_x");
        ObjectNode page = Responses.itemList(items, true);
        assertThat(page.path("object").asText()).isEqualTo("list");
        assertThat(page.path("first_id").asText()).isEqualTo("msg_x");
        assertThat(page.path("last_id").asText()).isEqualTo("msg_x");
        assertThat(page.path("has_more").asBoolean()).isTrue();
        assertThat(Responses.itemList(List.of(), false).path("first_id").isNull()).isTrue();
    }

    private static ResponsesStreamWriter writer() {
        return Responses.streamWriter(new ResponsesHeader("resp_1", 1, request("{\"model\":\"m\",\"input\":\"a\"}").echo()),
                new ResponsesCountingIds());
    }

    @Test
    void skillFieldsAreReadWithTheirFieldAndNeverPassedThrough() {
        ResponsesRequest r = request("""
                {"model": "m", "input": "hi", "skill": "concise", "skills": ["translator", "json-only"]}
                """);
        assertThat(r.settings().skills()).containsExactly(new dev.switchboard.model.SkillRef("concise", "skill"),
                new dev.switchboard.model.SkillRef("translator", "skills[0]"),
                new dev.switchboard.model.SkillRef("json-only", "skills[1]"));
        assertThat(r.settings().passthrough().fields()).doesNotContainKeys("skill", "skills");
        assertThat(r.echo().has("skill")).isFalse();
    }

    private static ResponsesRequest request(String json) {
        return Responses.fromClient(json.getBytes(StandardCharsets.UTF_8));
    }
}
