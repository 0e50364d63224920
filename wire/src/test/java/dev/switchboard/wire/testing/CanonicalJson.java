package dev.switchboard.wire.testing;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
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
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;

/**
 * Test-only JSON rendering of the canonical records, so fixtures can show (and diff) the canonical
 * request, answer and events between the two wire directions. Plain Jackson on the records; the sealed
 * hierarchies get a {@code "type"} discriminator through mix-ins, empty Optionals are left out.
 */
public final class CanonicalJson {
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = ContentBlock.Text.class, name = "text"),
            @JsonSubTypes.Type(value = ContentBlock.Refusal.class, name = "refusal"),
            @JsonSubTypes.Type(value = ContentBlock.Image.class, name = "image"),
            @JsonSubTypes.Type(value = ContentBlock.Document.class, name = "document"),
            @JsonSubTypes.Type(value = ContentBlock.ToolCall.class, name = "tool_call"),
            @JsonSubTypes.Type(value = ContentBlock.ToolResult.class, name = "tool_result"),
            @JsonSubTypes.Type(value = ContentBlock.Thinking.class, name = "thinking"),
            @JsonSubTypes.Type(value = ContentBlock.RedactedThinking.class, name = "redacted_thinking"),
            @JsonSubTypes.Type(value = ContentBlock.Opaque.class, name = "opaque")})
    private interface BlockMixIn {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = MediaSource.Url.class, name = "url"),
            @JsonSubTypes.Type(value = MediaSource.Base64.class, name = "base64"),
            @JsonSubTypes.Type(value = MediaSource.PlainText.class, name = "text"),
            @JsonSubTypes.Type(value = MediaSource.FileRef.class, name = "file")})
    private interface MediaMixIn {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = ToolChoice.Auto.class, name = "auto"),
            @JsonSubTypes.Type(value = ToolChoice.None.class, name = "none"),
            @JsonSubTypes.Type(value = ToolChoice.Required.class, name = "required"),
            @JsonSubTypes.Type(value = ToolChoice.Named.class, name = "named")})
    private interface ToolChoiceMixIn {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = ResponseFormat.Text.class, name = "text"),
            @JsonSubTypes.Type(value = ResponseFormat.JsonObject.class, name = "json_object"),
            @JsonSubTypes.Type(value = ResponseFormat.JsonSchema.class, name = "json_schema")})
    private interface ResponseFormatMixIn {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = ToolSpec.Freeform.Format.Text.class, name = "text"),
            @JsonSubTypes.Type(value = ToolSpec.Freeform.Format.Grammar.class, name = "grammar")})
    private interface FreeformFormatMixIn {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "event")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = StreamEvent.MessageStart.class, name = "message_start"),
            @JsonSubTypes.Type(value = StreamEvent.BlockStart.class, name = "block_start"),
            @JsonSubTypes.Type(value = StreamEvent.BlockDelta.class, name = "block_delta"),
            @JsonSubTypes.Type(value = StreamEvent.BlockStop.class, name = "block_stop"),
            @JsonSubTypes.Type(value = StreamEvent.MessageDelta.class, name = "message_delta"),
            @JsonSubTypes.Type(value = StreamEvent.MessageStop.class, name = "message_stop"),
            @JsonSubTypes.Type(value = StreamEvent.StreamError.class, name = "error")})
    private interface EventMixIn {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = StreamEvent.Delta.TextDelta.class, name = "text"),
            @JsonSubTypes.Type(value = StreamEvent.Delta.ArgumentsDelta.class, name = "arguments"),
            @JsonSubTypes.Type(value = StreamEvent.Delta.ThinkingDelta.class, name = "thinking"),
            @JsonSubTypes.Type(value = StreamEvent.Delta.LogprobsDelta.class, name = "logprobs"),
            @JsonSubTypes.Type(value = StreamEvent.Delta.SignatureDelta.class, name = "signature")})
    private interface DeltaMixIn {
    }

    /** An answer without logprobs (most fixtures) has no {@code logprobs} (or {@code refusalLogprobs}) key in its golden. */
    private abstract static class ResponseMixIn {
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        abstract java.util.List<dev.switchboard.model.TokenLogprob> logprobs();

        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        abstract java.util.List<dev.switchboard.model.TokenLogprob> refusalLogprobs();
    }

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .addMixIn(ContentBlock.class, BlockMixIn.class)
            .addMixIn(MediaSource.class, MediaMixIn.class)
            .addMixIn(ToolChoice.class, ToolChoiceMixIn.class)
            .addMixIn(ResponseFormat.class, ResponseFormatMixIn.class)
            .addMixIn(ToolSpec.Freeform.Format.class, FreeformFormatMixIn.class)
            .addMixIn(StreamEvent.class, EventMixIn.class)
            .addMixIn(StreamEvent.Delta.class, DeltaMixIn.class)
            .addMixIn(ChatResponse.class, ResponseMixIn.class)
            .withConfigOverride(java.util.List.class, o -> o.setSetterInfo(
                    com.fasterxml.jackson.annotation.JsonSetter.Value.forValueNulls(com.fasterxml.jackson.annotation.Nulls.AS_EMPTY)))
            .serializationInclusion(JsonInclude.Include.NON_ABSENT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"));

    private CanonicalJson() {
    }

    public static JsonNode tree(Object canonical) {
        return MAPPER.valueToTree(canonical);
    }

    /** Pretty JSON for golden files. */
    public static String pretty(JsonNode node) {
        try {
            return MAPPER.writer(PRETTY).writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One-line JSON (for .jsonl goldens). */
    public static String compact(Object canonical) {
        try {
            return MAPPER.writeValueAsString(canonical);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ChatRequest request(JsonNode json) {
        return read(json, ChatRequest.class);
    }

    public static ChatResponse response(JsonNode json) {
        return read(json, ChatResponse.class);
    }

    public static StreamEvent event(JsonNode json) {
        return read(json, StreamEvent.class);
    }

    public static GatewayError error(JsonNode json) {
        return read(json, GatewayError.class);
    }

    private static <T> T read(JsonNode json, Class<T> type) {
        try {
            return MAPPER.treeToValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a canonical " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }
}
