package dev.switchboard.wire.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.testing.Golden;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Round trips over every fixture: what the chat-completions format can express must survive
 * wire -> canonical -> same wire. The documented losses are spelled out in {@link #expressible}.
 */
class OpenAiRoundTripTest {
    /** The most faithful upstream rendering: nothing switched off. */
    private static final OpenAiUpstreamOptions FULL = new OpenAiUpstreamOptions(
            OpenAiUpstreamOptions.MaxTokensField.MAX_COMPLETION_TOKENS, true, true, true);

    static Stream<Arguments> withFile(String name) {
        return Golden.cases("openai").stream().filter(p -> Files.exists(p.resolve(name)))
                .map(p -> Arguments.of(Named.of(p.getFileName().toString(), p)));
    }

    static Stream<Arguments> clientRequests() {
        return withFile("client-request.json").filter(a -> !Files.exists(((Path) ((Named<?>) a.get()[0]).getPayload())
                .resolve("client-error.json")));
    }

    static Stream<Arguments> upstreamResponses() {
        return withFile("upstream-response.json");
    }

    static Stream<Arguments> upstreamStreams() {
        return withFile("upstream-stream.sse");
    }

    static Stream<Arguments> clientStreams() {
        return withFile("client-stream.sse");
    }

    /** client JSON -> canonical -> OpenAI JSON -> canonical keeps everything the format can carry. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clientRequests")
    void clientRequestSurvivesRenderingInTheSameFormat(Path dir) {
        ChatRequest first = OpenAi.fromClient(Golden.readJson(dir.resolve("client-request.json")));
        ObjectNode rendered = OpenAi.toUpstream(first, first.model(), first.stream(), FULL);
        ChatRequest second = OpenAi.fromClient(rendered);
        assertThat(second).isEqualTo(expressible(first));
    }

    /** upstream response -> canonical -> client response is the identity on the fields OpenAI has. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("upstreamResponses")
    void upstreamResponseSurvivesRenderingForAClient(Path dir) {
        JsonNode upstream = Golden.readJson(dir.resolve("upstream-response.json"));
        ObjectNode client = OpenAi.toClient(OpenAi.fromUpstream(upstream), upstream.path("created").asLong());
        assertThat(project(client)).isEqualTo(project(upstream));
    }

    /** An upstream stream and the client stream rendered from it fold to the same answer. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("upstreamStreams")
    void upstreamStreamSurvivesRenderingForAClient(Path dir) {
        String upstream = Golden.read(dir.resolve("upstream-stream.sse"));
        List<StreamEvent> events = OpenAiFixtures.parseUpstream(upstream.getBytes(StandardCharsets.UTF_8), 3);
        OpenAiClientStreamWriter writer = new OpenAiClientStreamWriter(1);
        StringBuilder client = new StringBuilder();
        events.forEach(e -> client.append(writer.write(e)));

        ObjectNode up = OpenAiChunkAccumulator.fold(Golden.events(upstream));
        ObjectNode down = OpenAiChunkAccumulator.fold(Golden.events(client.toString()));
        for (String field : List.of("content", "refusal", "reasoning", "tool_calls")) {
            assertThat(down.get(field)).as(field).isEqualTo(up.get(field));
        }
        if (up.path("error").isNull() && up.path("done").asBoolean()) {
            assertThat(down.get("finish_reason")).isEqualTo(up.get("finish_reason"));
            assertThat(usage(down.get("usage"))).isEqualTo(usage(up.get("usage")));
        } else {
            assertThat(down.path("error").isObject()).as("a failed upstream stream ends with an error chunk").isTrue();
        }
        assertThat(down.path("done").asBoolean()).as("client stream ends with [DONE]").isTrue();
    }

    /** Spec 6.1 and docs/contracts.md §2 on every client stream we render. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clientStreams")
    void clientStreamKeepsTheChunkContract(Path dir) {
        List<SseEvent> events = Golden.events(Golden.read(dir.resolve("client-stream.sse")));
        assertThat(events).isNotEmpty();
        assertThat(events.get(events.size() - 1).isDone()).as("ends with [DONE]").isTrue();
        assertThat(events.stream().filter(SseEvent::isDone).count()).as("exactly one [DONE]").isEqualTo(1);
        List<JsonNode> chunks = events.subList(0, events.size() - 1).stream().map(e -> Json.parse(e.data())).toList();
        JsonNode first = chunks.get(0);
        assertThat(first.path("choices").path(0).path("delta").path("role").asText()).isEqualTo("assistant");
        List<Integer> seenTools = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            JsonNode c = chunks.get(i);
            boolean last = i == chunks.size() - 1;
            assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(c.path("id")).isEqualTo(first.path("id"));
            assertThat(c.path("model")).isEqualTo(first.path("model"));
            assertThat(c.path("created")).isEqualTo(first.path("created"));
            assertThat(c.path("choices").isArray() && !c.path("choices").isEmpty()).as("choices kept").isTrue();
            JsonNode choice = c.path("choices").path(0);
            assertThat(choice.path("finish_reason").isNull()).as("finish_reason null until the end").isEqualTo(!last);
            for (JsonNode tc : choice.path("delta").path("tool_calls")) {
                int index = tc.path("index").asInt(-1);
                if (!seenTools.contains(index)) {
                    assertThat(index).as("tool call indexes count tool calls from 0").isEqualTo(seenTools.size());
                    assertThat(tc.path("id").asText()).isNotEmpty();
                    assertThat(tc.path("type").asText()).isEqualTo("function");
                    assertThat(tc.path("function").path("name").asText()).isNotEmpty();
                    seenTools.add(index);
                }
            }
        }
        JsonNode last = chunks.get(chunks.size() - 1);
        assertThat(last.path("usage").isObject()).as("final chunk carries usage").isTrue();
        assertThat(last.path("choices").path(0).path("delta").isEmpty()).as("final delta is empty").isTrue();
    }

    /** The canonical request as it comes back after one trip through the format (the documented losses). */
    static ChatRequest expressible(ChatRequest r) {
        List<Message> messages = new ArrayList<>();
        for (Message m : r.messages()) {
            List<ContentBlock> blocks = new ArrayList<>();
            for (ContentBlock b : m.content()) {
                uncached(b).ifPresent(blocks::add);
            }
            messages.add(new Message(m.role(), blocks));
        }
        List<String> system = r.system().stream().filter(b -> b instanceof ContentBlock.Text)
                .map(b -> ((ContentBlock.Text) b).text()).toList();
        List<ToolSpec> tools = r.tools().stream().map(t -> new ToolSpec(t.name(), t.description(), t.parameters(),
                t.strict(), Optional.empty())).toList();
        return r.toBuilder()
                .system(system.isEmpty() ? List.of() : List.of(ContentBlock.Text.of(String.join("\n\n", system))))
                .messages(messages)
                .tools(tools)
                .toolChoice(tools.isEmpty() ? ToolChoice.AUTO : r.toolChoice())
                .parallelToolCalls(tools.isEmpty() ? Optional.empty() : r.parallelToolCalls())
                .reasoning(new Reasoning(r.reasoning().effort(), Optional.empty(), java.util.OptionalInt.empty(),
                        Reasoning.Format.SEPARATE, false, Optional.empty()))
                .fallbackModels(List.of())
                .transforms(List.of())
                .ignoreDefaults(false)
                .skills(List.of())
                .build();
    }

    /** Cache markers are dropped; reasoning signed by another provider is not sent to this one. */
    private static Optional<ContentBlock> uncached(ContentBlock b) {
        return switch (b) {
            case ContentBlock.Text t -> Optional.of(t.withCache(Optional.empty()));
            case ContentBlock.Image i -> Optional.of(new ContentBlock.Image(i.source(), i.detail(), Optional.empty()));
            case ContentBlock.Document d ->
                    Optional.of(new ContentBlock.Document(d.source(), d.title(), Optional.empty()));
            case ContentBlock.ToolResult t -> Optional.of(new ContentBlock.ToolResult(t.callId(), t.name(),
                    t.content().stream().map(c -> uncached(c).orElseThrow()).toList(), t.isError(), Optional.empty()));
            case ContentBlock.Thinking t -> t.signature().isEmpty() || t.signature().get().isFrom(OpenAi.FORMAT)
                    ? Optional.of(t) : Optional.empty();
            case ContentBlock.RedactedThinking x -> x.origin().equals(OpenAi.FORMAT) ? Optional.of(x) : Optional.empty();
            default -> Optional.of(b);
        };
    }

    /** The fields of a chat completion that both sides have, normalised (null and "" content alike). */
    private static ObjectNode project(JsonNode completion) {
        ObjectNode o = Json.object();
        for (String f : List.of("id", "object", "created", "model")) {
            o.set(f, completion.path(f));
        }
        JsonNode choice = completion.path("choices").path(0);
        JsonNode m = choice.path("message");
        o.put("finish_reason", choice.path("finish_reason").asText());
        o.put("role", m.path("role").asText());
        o.put("content", m.path("content").asText(""));
        o.put("refusal", m.path("refusal").asText(""));
        o.put("reasoning", m.path("reasoning_content").isTextual() ? m.path("reasoning_content").asText()
                : m.path("reasoning").asText(""));
        var calls = o.putArray("tool_calls");
        for (JsonNode tc : m.path("tool_calls")) {
            calls.addObject().put("id", tc.path("id").asText()).put("type", tc.path("type").asText())
                    .put("name", tc.path("function").path("name").asText())
                    .put("arguments", tc.path("function").path("arguments").asText());
        }
        o.set("usage", usage(completion.path("usage")));
        // Re-parse so int and long nodes of the same number compare equal.
        return (ObjectNode) Json.parse(Json.write(o));
    }

    /** Usage fields with zero-valued details dropped (we omit them, spec 2.6; OpenAI sends zeros). */
    private static ObjectNode usage(JsonNode u) {
        ObjectNode o = Json.object();
        for (String f : List.of("prompt_tokens", "completion_tokens", "total_tokens", "cache_creation_input_tokens")) {
            if (u.path(f).asLong() > 0) {
                o.put(f, u.path(f).asLong());
            }
        }
        long cached = u.path("prompt_tokens_details").path("cached_tokens").asLong();
        long reasoning = u.path("completion_tokens_details").path("reasoning_tokens").asLong();
        if (cached > 0) {
            o.put("cached_tokens", cached);
        }
        if (reasoning > 0) {
            o.put("reasoning_tokens", reasoning);
        }
        return o;
    }
}
