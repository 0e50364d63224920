package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The canonical model as readable JSON, for golden files: records as objects in component order, sealed
 * types tagged with {@code "kind"} (the record's simple name), {@code Optional.empty()} as {@code null}.
 * Test-only and private to this package; it also reads the JSON back, so a golden canonical file can be
 * checked to decode to the very object it was written from.
 */
final class CanonicalJson {

    @JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "kind")
    @JsonSubTypes({@JsonSubTypes.Type(ContentBlock.Text.class), @JsonSubTypes.Type(ContentBlock.Image.class),
            @JsonSubTypes.Type(ContentBlock.Document.class), @JsonSubTypes.Type(ContentBlock.ToolCall.class),
            @JsonSubTypes.Type(ContentBlock.ToolResult.class), @JsonSubTypes.Type(ContentBlock.Thinking.class),
            @JsonSubTypes.Type(ContentBlock.RedactedThinking.class), @JsonSubTypes.Type(ContentBlock.Opaque.class)})
    private interface ContentBlockMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "kind")
    @JsonSubTypes({@JsonSubTypes.Type(MediaSource.Url.class), @JsonSubTypes.Type(MediaSource.Base64.class),
            @JsonSubTypes.Type(MediaSource.PlainText.class), @JsonSubTypes.Type(MediaSource.FileRef.class)})
    private interface MediaSourceMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "kind")
    @JsonSubTypes({@JsonSubTypes.Type(ToolChoice.Auto.class), @JsonSubTypes.Type(ToolChoice.None.class),
            @JsonSubTypes.Type(ToolChoice.Required.class), @JsonSubTypes.Type(ToolChoice.Named.class)})
    private interface ToolChoiceMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "kind")
    @JsonSubTypes({@JsonSubTypes.Type(ResponseFormat.Text.class), @JsonSubTypes.Type(ResponseFormat.JsonObject.class),
            @JsonSubTypes.Type(ResponseFormat.JsonSchema.class)})
    private interface ResponseFormatMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "kind")
    @JsonSubTypes({@JsonSubTypes.Type(StreamEvent.MessageStart.class), @JsonSubTypes.Type(StreamEvent.BlockStart.class),
            @JsonSubTypes.Type(StreamEvent.BlockDelta.class), @JsonSubTypes.Type(StreamEvent.BlockStop.class),
            @JsonSubTypes.Type(StreamEvent.MessageDelta.class), @JsonSubTypes.Type(StreamEvent.MessageStop.class),
            @JsonSubTypes.Type(StreamEvent.StreamError.class)})
    private interface StreamEventMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "kind")
    @JsonSubTypes({@JsonSubTypes.Type(StreamEvent.Delta.TextDelta.class),
            @JsonSubTypes.Type(StreamEvent.Delta.ArgumentsDelta.class),
            @JsonSubTypes.Type(StreamEvent.Delta.ThinkingDelta.class),
            @JsonSubTypes.Type(StreamEvent.Delta.SignatureDelta.class)})
    private interface DeltaMixin {
    }

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .addMixIn(ContentBlock.class, ContentBlockMixin.class)
            .addMixIn(MediaSource.class, MediaSourceMixin.class)
            .addMixIn(ToolChoice.class, ToolChoiceMixin.class)
            .addMixIn(ResponseFormat.class, ResponseFormatMixin.class)
            .addMixIn(StreamEvent.class, StreamEventMixin.class)
            .addMixIn(StreamEvent.Delta.class, DeltaMixin.class)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    private CanonicalJson() {
    }

    static JsonNode tree(Object canonical) {
        return MAPPER.valueToTree(canonical);
    }

    /** The JSON of a list of events, each tagged with its kind (a plain list would lose the base type). */
    static JsonNode events(List<StreamEvent> events) {
        try {
            return MAPPER.readTree(MAPPER.writerFor(EVENTS).writeValueAsBytes(events));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static final TypeReference<List<StreamEvent>> EVENTS =
            new TypeReference<>() { };

    static <T> T read(JsonNode json, Class<T> type) {
        try {
            return MAPPER.treeToValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static <T> T read(JsonNode json, TypeReference<T> type) {
        return MAPPER.convertValue(json, type);
    }
}
