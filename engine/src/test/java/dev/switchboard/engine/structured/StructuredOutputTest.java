package dev.switchboard.engine.structured;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StructuredOutputTest {
    private static final String FENCED = "Here:\n```json\n{\"a\": 1}\n```";

    private static ChatRequest request(ResponseFormat format, boolean stream) {
        return ChatRequest.builder("m").addMessage(Message.user("hi")).responseFormat(format).stream(stream).build();
    }

    private static ChatResponse answer(ContentBlock... blocks) {
        return new ChatResponse("id", "m", List.of(blocks), StopReason.END_TURN, Optional.empty(), Usage.of(1, 1));
    }

    @Test
    void jsonObjectAnswerInAFenceBecomesThePayload() {
        ChatResponse out = StructuredOutput.present(request(ResponseFormat.JSON_OBJECT, false),
                answer(ContentBlock.Text.of(FENCED)));
        assertThat(out.text()).isEqualTo("{\"a\": 1}");
    }

    @Test
    void jsonSchemaAnswerToo() {
        ResponseFormat schema = new ResponseFormat.JsonSchema("thing", Optional.empty(), JsonNodeFactory.instance.objectNode(), true);
        assertThat(StructuredOutput.present(request(schema, false), answer(ContentBlock.Text.of(FENCED))).text())
                .isEqualTo("{\"a\": 1}");
    }

    @Test
    void textFormatIsNeverRewritten() {
        ChatResponse in = answer(ContentBlock.Text.of(FENCED));
        assertThat(StructuredOutput.present(request(ResponseFormat.TEXT, false), in)).isSameAs(in);
    }

    @Test
    void streamedRequestsAreNeverRewritten() {
        ChatResponse in = answer(ContentBlock.Text.of(FENCED));
        assertThat(StructuredOutput.present(request(ResponseFormat.JSON_OBJECT, true), in)).isSameAs(in);
    }

    @Test
    void unrecoverableTextStaysExactlyAsItWas() {
        ChatResponse in = answer(ContentBlock.Text.of("no json here, sorry"));
        assertThat(StructuredOutput.present(request(ResponseFormat.JSON_OBJECT, false), in)).isSameAs(in);
    }

    @Test
    void otherBlocksAreKeptAndSplitTextBecomesOneBlock() {
        ContentBlock thinking = ContentBlock.Thinking.of("let me think");
        ChatResponse out = StructuredOutput.present(request(ResponseFormat.JSON_OBJECT, false),
                answer(thinking, ContentBlock.Text.of("Here:\n```json\n{\"a\""), ContentBlock.Text.of(": 1}\n```")));
        assertThat(out.content()).containsExactly(thinking, ContentBlock.Text.of("{\"a\": 1}"));
    }
}
