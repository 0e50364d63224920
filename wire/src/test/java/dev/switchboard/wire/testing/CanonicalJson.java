package dev.switchboard.wire.testing;

import com.fasterxml.jackson.annotation.JsonInclude;
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
import com.fasterxml.jackson.databind.jsontype.NamedType;
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
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Test-only JSON rendering of the canonical records, so fixtures can show (and diff) the canonical
 * request, answer and events between the two wire directions. Plain Jackson on the records; the sealed
 * hierarchies get a {@code "type"} discriminator through mix-ins, empty Optionals are left out.
 */
public final class CanonicalJson {
    /** The tag of a canonical sealed type's member: {@code "type"}, except on stream events. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    private interface TaggedByType {
    }

    /** Stream events are tagged {@code "event"}: their blocks and deltas inside carry a {@code "type"} of their own. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "event")
    private interface TaggedByEvent {
    }

    /** The sealed canonical types and their tag property; a new member of one is tagged without a change here. */
    private static final Map<Class<?>, Class<?>> TAGGED = Map.of(
            ContentBlock.class, TaggedByType.class,
            MediaSource.class, TaggedByType.class,
            ToolChoice.class, TaggedByType.class,
            ResponseFormat.class, TaggedByType.class,
            ToolSpec.Freeform.Format.class, TaggedByType.class,
            StreamEvent.class, TaggedByEvent.class,
            StreamEvent.Delta.class, TaggedByType.class);

    /**
     * Members whose tag is not the rule's (see {@link #tag}); the goldens were written with these names, which
     * say what the member is in the canonical model rather than what the record is called.
     */
    private static final Map<Class<?>, String> TAG_EXCEPTIONS = Map.of(
            MediaSource.PlainText.class, "text",
            MediaSource.FileRef.class, "file",
            StreamEvent.StreamError.class, "error");

    /** An answer without logprobs (most fixtures) has no {@code logprobs} (or {@code refusalLogprobs}) key in its golden. */
    private abstract static class ResponseMixIn {
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        abstract java.util.List<dev.switchboard.model.TokenLogprob> logprobs();

        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        abstract java.util.List<dev.switchboard.model.TokenLogprob> refusalLogprobs();
    }

    private static final ObjectMapper MAPPER = mapper();

    private static ObjectMapper mapper() {
        JsonMapper.Builder builder = JsonMapper.builder()
                .addModule(new Jdk8Module())
                .registerSubtypes(TAGGED.keySet().stream().flatMap(CanonicalJson::tags).toArray(NamedType[]::new))
                .addMixIn(ChatResponse.class, ResponseMixIn.class)
                .withConfigOverride(java.util.List.class, o -> o.setSetterInfo(
                        com.fasterxml.jackson.annotation.JsonSetter.Value.forValueNulls(com.fasterxml.jackson.annotation.Nulls.AS_EMPTY)))
                .serializationInclusion(JsonInclude.Include.NON_ABSENT)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        TAGGED.forEach(builder::addMixIn);
        return builder.build();
    }

    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"));

    private CanonicalJson() {
    }

    /**
     * The tags of a sealed type's members: the member's name in snake case, less its sealed type's name as a
     * suffix ({@code ToolCall} is {@code tool_call}, {@code TextDelta} of {@code Delta} is {@code text}), unless
     * {@link #TAG_EXCEPTIONS} names it.
     */
    private static Stream<NamedType> tags(Class<?> sealed) {
        return Arrays.stream(sealed.getPermittedSubclasses()).map(member -> new NamedType(member, tag(sealed, member)));
    }

    private static String tag(Class<?> sealed, Class<?> member) {
        String exception = TAG_EXCEPTIONS.get(member);
        if (exception != null) {
            return exception;
        }
        String name = member.getSimpleName();
        if (name.endsWith(sealed.getSimpleName()) && !name.equals(sealed.getSimpleName())) {
            name = name.substring(0, name.length() - sealed.getSimpleName().length());
        }
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
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
