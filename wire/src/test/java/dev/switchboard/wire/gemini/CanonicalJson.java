package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Test-only JSON form of the canonical model, for golden fixtures: records as objects, sealed types with
 * a {@code type} tag, empty optionals left out. Reading back must give an equal object, so a fixture
 * file is a faithful picture of what the translator produced.
 */
final class CanonicalJson {

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = ContentBlock.Text.class, name = "text"),
        @JsonSubTypes.Type(value = ContentBlock.Image.class, name = "image"),
        @JsonSubTypes.Type(value = ContentBlock.Document.class, name = "document"),
        @JsonSubTypes.Type(value = ContentBlock.ToolCall.class, name = "tool_call"),
        @JsonSubTypes.Type(value = ContentBlock.ToolResult.class, name = "tool_result"),
        @JsonSubTypes.Type(value = ContentBlock.Thinking.class, name = "thinking"),
        @JsonSubTypes.Type(value = ContentBlock.RedactedThinking.class, name = "redacted_thinking"),
        @JsonSubTypes.Type(value = ContentBlock.Opaque.class, name = "opaque"),
    })
    private interface BlockMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = MediaSource.Url.class, name = "url"),
        @JsonSubTypes.Type(value = MediaSource.Base64.class, name = "base64"),
        @JsonSubTypes.Type(value = MediaSource.PlainText.class, name = "plain_text"),
        @JsonSubTypes.Type(value = MediaSource.FileRef.class, name = "file_ref"),
    })
    private interface MediaMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = ToolChoice.Auto.class, name = "auto"),
        @JsonSubTypes.Type(value = ToolChoice.None.class, name = "none"),
        @JsonSubTypes.Type(value = ToolChoice.Required.class, name = "required"),
        @JsonSubTypes.Type(value = ToolChoice.Named.class, name = "named"),
    })
    private interface ToolChoiceMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = ResponseFormat.Text.class, name = "text"),
        @JsonSubTypes.Type(value = ResponseFormat.JsonObject.class, name = "json_object"),
        @JsonSubTypes.Type(value = ResponseFormat.JsonSchema.class, name = "json_schema"),
    })
    private interface ResponseFormatMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = StreamEvent.MessageStart.class, name = "message_start"),
        @JsonSubTypes.Type(value = StreamEvent.BlockStart.class, name = "block_start"),
        @JsonSubTypes.Type(value = StreamEvent.BlockDelta.class, name = "block_delta"),
        @JsonSubTypes.Type(value = StreamEvent.BlockStop.class, name = "block_stop"),
        @JsonSubTypes.Type(value = StreamEvent.MessageDelta.class, name = "message_delta"),
        @JsonSubTypes.Type(value = StreamEvent.MessageStop.class, name = "message_stop"),
        @JsonSubTypes.Type(value = StreamEvent.StreamError.class, name = "stream_error"),
    })
    private interface EventMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = StreamEvent.Delta.TextDelta.class, name = "text"),
        @JsonSubTypes.Type(value = StreamEvent.Delta.ArgumentsDelta.class, name = "arguments"),
        @JsonSubTypes.Type(value = StreamEvent.Delta.ThinkingDelta.class, name = "thinking"),
        @JsonSubTypes.Type(value = StreamEvent.Delta.SignatureDelta.class, name = "signature"),
    })
    private interface DeltaMixin {
    }

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .addMixIn(ContentBlock.class, BlockMixin.class)
            .addMixIn(MediaSource.class, MediaMixin.class)
            .addMixIn(ToolChoice.class, ToolChoiceMixin.class)
            .addMixIn(ResponseFormat.class, ResponseFormatMixin.class)
            .addMixIn(StreamEvent.class, EventMixin.class)
            .addMixIn(StreamEvent.Delta.class, DeltaMixin.class)
            .serializationInclusion(JsonInclude.Include.NON_ABSENT)
            // Hand-written inputs may leave out empty lists and maps.
            .withConfigOverride(List.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
            .withConfigOverride(Map.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    private CanonicalJson() {
    }

    static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** A list of events, each with its type tag (a plain list would lose them to erasure). */
    static JsonNode eventsTree(List<StreamEvent> events) {
        try {
            return MAPPER.readTree(MAPPER.writerFor(new TypeReference<List<StreamEvent>>() { })
                    .writeValueAsString(events));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ChatRequest request(JsonNode json) {
        return read(json, ChatRequest.class);
    }

    static ChatResponse response(JsonNode json) {
        return read(json, ChatResponse.class);
    }

    static List<StreamEvent> events(JsonNode json) {
        try {
            return MAPPER.readerForListOf(StreamEvent.class).readValue(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Two-space indented JSON with a final newline, the form every fixture file is written in. */
    static String pretty(JsonNode node) {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator(""))
                .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        try {
            return MAPPER.writer(printer).writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T read(JsonNode json, Class<T> type) {
        try {
            return MAPPER.treeToValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
