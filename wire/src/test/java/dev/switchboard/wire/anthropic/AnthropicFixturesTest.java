package dev.switchboard.wire.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden fixtures of the Anthropic format, one directory per case under {@code fixtures/anthropic/}.
 * Inputs (hand-written, recorded shapes) and goldens (generated, reviewed):
 *
 * <pre>
 * client-request.json    -> canonical-request.json, upstream-request.json (+ upstream-betas.json)
 *                           or client-error.json when the request is refused
 * upstream-response.json -> canonical-response.json, client-response.json
 * upstream-stream.sse    -> canonical-events.json, client-stream.sse
 * upstream-error.json    -> canonical-error.json   ({"status": n, "body": {...}} in)
 * cases.json             -> errors.json            (a table of refused requests: a base body and patches)
 * </pre>
 *
 * Besides the goldens every case checks the round trips Anthropic clients depend on: signed thinking and
 * redacted thinking reach the upstream exactly as the client sent them; an upstream answer, streamed or
 * not, reaches an Anthropic client with every field this gateway carries unchanged; a golden canonical
 * file decodes to the very object it was written from.
 *
 * <p>{@code -Dfixtures.update=true} rewrites the goldens instead of comparing; review the diff.
 */
class AnthropicFixturesTest {
    static final Path ROOT = Path.of(System.getProperty("fixtures.dir", "src/test/resources/fixtures"), "anthropic");
    static final boolean UPDATE = Boolean.getBoolean("fixtures.update");
    static final String UPSTREAM_MODEL = "claude-upstream-model";
    static final int DEFAULT_MAX_TOKENS = 4096;

    /** Two-space indentation, one element per line, {@code "key": value}: goldens that read like hand-written JSON. */
    private static final ObjectWriter PRETTY = Json.MAPPER.writer(new DefaultPrettyPrinter(
            Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
            .withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"))
            .withObjectIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n")));

    @TestFactory
    Stream<DynamicNode> fixtures() throws IOException {
        assertThat(ROOT).isDirectory();
        try (Stream<Path> dirs = Files.list(ROOT)) {
            List<Path> cases = dirs.filter(Files::isDirectory).sorted().toList();
            assertThat(cases).isNotEmpty();
            return cases.stream().map(AnthropicFixturesTest::fixtureCase).toList().stream();
        }
    }

    private static DynamicNode fixtureCase(Path dir) {
        List<DynamicNode> tests = new ArrayList<>();
        if (Files.exists(dir.resolve("client-request.json"))) {
            tests.add(DynamicTest.dynamicTest("client request", () -> clientRequest(dir)));
        }
        if (Files.exists(dir.resolve("upstream-response.json"))) {
            tests.add(DynamicTest.dynamicTest("upstream response", () -> upstreamResponse(dir)));
        }
        if (Files.exists(dir.resolve("upstream-stream.sse"))) {
            tests.add(DynamicTest.dynamicTest("upstream stream", () -> upstreamStream(dir)));
        }
        if (Files.exists(dir.resolve("upstream-error.json"))) {
            tests.add(DynamicTest.dynamicTest("upstream error", () -> upstreamError(dir)));
        }
        if (Files.exists(dir.resolve("cases.json"))) {
            tests.add(DynamicTest.dynamicTest("validation table", () -> validationTable(dir)));
        }
        if (tests.isEmpty()) {
            tests.add(DynamicTest.dynamicTest("has inputs", () -> fail("no input file in " + dir)));
        }
        return DynamicContainer.dynamicContainer(dir.getFileName().toString(), tests);
    }

    // ---- client request -> canonical -> upstream request

    private static void clientRequest(Path dir) {
        JsonNode client = readJson(dir.resolve("client-request.json"));
        ChatRequest request;
        try {
            request = Anthropic.fromClient(client);
        } catch (GatewayException e) {
            ObjectNode error = Json.object().put("status", e.error().status());
            error.set("body", Anthropic.errorBody(e.error()));
            golden(dir.resolve("client-error.json"), error);
            assertThat(dir.resolve("canonical-request.json")).as("stale golden").doesNotExist();
            return;
        }
        assertThat(dir.resolve("client-error.json")).as("the request was accepted").doesNotExist();
        JsonNode canonical = CanonicalJson.tree(request);
        golden(dir.resolve("canonical-request.json"), canonical);
        assertThat(CanonicalJson.read(canonical, ChatRequest.class)).isEqualTo(request);

        ObjectNode upstream = Anthropic.toUpstream(request, UPSTREAM_MODEL, request.stream(), DEFAULT_MAX_TOKENS);
        golden(dir.resolve("upstream-request.json"), upstream);
        List<String> betas = Anthropic.requiredBetas(request);
        Path betasFile = dir.resolve("upstream-betas.json");
        if (!betas.isEmpty() || Files.exists(betasFile)) {
            golden(betasFile, Json.MAPPER.valueToTree(betas));
        }

        assertThat(reasoningBlocks(upstream, false))
                .as("signed thinking and redacted thinking reach the upstream exactly as the client sent them")
                .isEqualTo(reasoningBlocks(client, true));
    }

    /** Thinking and redacted thinking blocks of all messages, in order; {@code signedOnly} skips unsigned thinking. */
    private static List<String> reasoningBlocks(JsonNode body, boolean signedOnly) {
        List<String> out = new ArrayList<>();
        for (JsonNode message : body.path("messages")) {
            for (JsonNode block : message.path("content")) {
                String type = block.path("type").asText();
                if (type.equals("redacted_thinking")
                        || type.equals("thinking") && !(signedOnly && block.path("signature").asText().isEmpty())) {
                    // Compared as text: the values (signature above all) must be byte-identical.
                    out.add(type + "|" + block.path("thinking").asText(block.path("data").asText())
                            + "|" + block.path("signature").asText());
                }
            }
        }
        return out;
    }

    // ---- upstream response -> canonical -> client response

    private static void upstreamResponse(Path dir) {
        JsonNode upstream = readJson(dir.resolve("upstream-response.json"));
        ChatResponse response = Anthropic.fromUpstream(upstream);
        JsonNode canonical = CanonicalJson.tree(response);
        golden(dir.resolve("canonical-response.json"), canonical);
        assertThat(CanonicalJson.read(canonical, ChatResponse.class)).isEqualTo(response);

        ObjectNode client = Anthropic.toClient(response);
        golden(dir.resolve("client-response.json"), client);
        assertThat(pretty(carried(client))).as("an upstream answer reaches the client unchanged")
                .isEqualTo(pretty(carried(upstream)));
    }

    /** The fields of a message this gateway carries, with zero cache counts removed (the client omits them). */
    private static JsonNode carried(JsonNode message) {
        ObjectNode out = Json.object();
        for (String field : List.of("id", "type", "role", "model", "content", "stop_reason", "stop_sequence")) {
            out.set(field, message.path(field).deepCopy());
        }
        for (JsonNode block : out.withArray("content")) {
            ((ObjectNode) block).remove("citations");
        }
        out.set("usage", carriedUsage(message.path("usage")));
        return out;
    }

    private static JsonNode carriedUsage(JsonNode usage) {
        ObjectNode out = Json.object();
        for (String field : List.of("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")) {
            if (usage.path(field).asLong() > 0 || field.equals("input_tokens") || field.equals("output_tokens")) {
                out.put(field, usage.path(field).asLong());
            }
        }
        if (usage.path("cache_creation_input_tokens").asLong() > 0) {
            out.set("cache_creation", usage.path("cache_creation").deepCopy());
        }
        return out;
    }

    // ---- upstream stream -> canonical events -> client stream

    private static void upstreamStream(Path dir) {
        String upstream = readText(dir.resolve("upstream-stream.sse"));
        AnthropicUpstreamStreamParser parser = new AnthropicUpstreamStreamParser();
        List<StreamEvent> events = new ArrayList<>();
        List<SseEvent> upstreamEvents = AnthropicSseMessages.parse(upstream);
        for (SseEvent e : upstreamEvents) {
            events.addAll(parser.onEvent(e.event(), e.data()));
        }
        events.addAll(parser.onEnd());
        JsonNode canonical = CanonicalJson.events(events);
        golden(dir.resolve("canonical-events.json"), canonical);
        assertThat(CanonicalJson.read(canonical, CanonicalJson.EVENTS)).isEqualTo(events);

        AnthropicClientStreamWriter writer = new AnthropicClientStreamWriter();
        StringBuilder client = new StringBuilder();
        events.forEach(e -> client.append(writer.write(e)));
        golden(dir.resolve("client-stream.sse"), client.toString());

        List<SseEvent> clientEvents = AnthropicSseMessages.parse(client.toString());
        AnthropicSseMessages.assertWellFormed(clientEvents);
        assertThat(pretty(carriedStream(AnthropicSseMessages.accumulate(clientEvents))))
                .as("an upstream stream reaches the client as the same message")
                .isEqualTo(pretty(carriedStream(AnthropicSseMessages.accumulate(upstreamEvents))));
    }

    /** A streamed message's carried fields; an error is compared by its message (the envelopes differ on purpose). */
    private static JsonNode carriedStream(ObjectNode message) {
        ObjectNode out = (ObjectNode) carried(message);
        for (JsonNode block : out.withArray("content")) {
            if (block.path("type").asText().equals("tool_use") && block.path("input").isEmpty()) {
                ((ObjectNode) block).set("input", Json.object()); // no slices or an empty one: both mean {}
            }
        }
        if (message.has("error")) {
            out.put("error", message.at("/error/message").asText());
        }
        return out;
    }

    // ---- upstream error -> canonical error

    private static void upstreamError(Path dir) {
        JsonNode input = readJson(dir.resolve("upstream-error.json"));
        int status = input.path("status").asInt();
        GatewayError error = Anthropic.errorFromUpstream(status, Json.writeBytes(input.path("body")));
        ObjectNode out = Json.object();
        out.set("error", CanonicalJson.tree(error));
        out.put("prefillRejection", Anthropic.isPrefillRejection(status, error));
        golden(dir.resolve("canonical-error.json"), out);
    }

    // ---- table of refused requests

    private static void validationTable(Path dir) {
        JsonNode table = readJson(dir.resolve("cases.json"));
        ArrayNode results = Json.array();
        List<String> accepted = new ArrayList<>();
        for (JsonNode c : table.path("cases")) {
            ObjectNode body = table.path("base").deepCopy();
            c.path("remove").forEach(pointer -> remove(body, pointer.asText()));
            for (Map.Entry<String, JsonNode> set : c.path("set").properties()) {
                set(body, set.getKey(), set.getValue().deepCopy());
            }
            ObjectNode result = results.addObject().put("name", c.path("name").asText());
            try {
                Anthropic.fromClient(body);
                accepted.add(c.path("name").asText());
                result.put("accepted", true);
            } catch (GatewayException e) {
                result.put("status", e.error().status()).put("type", e.error().type())
                        .put("param", e.error().param().orElse(null)).put("message", e.error().message());
            }
        }
        golden(dir.resolve("errors.json"), results);
        assertThat(accepted).as("every case of the table must be refused").isEmpty();
        results.forEach(r -> assertThat(r.path("param").isTextual()).as("param named in " + r).isTrue());
    }

    private static void set(ObjectNode root, String pointer, JsonNode value) {
        JsonPointer p = JsonPointer.compile(pointer);
        JsonNode parent = root.at(p.head());
        String last = p.last().getMatchingProperty();
        if (parent instanceof ArrayNode array) {
            int i = p.last().getMatchingIndex();
            if (i >= 0 && i < array.size()) {
                array.set(i, value);
            } else {
                array.add(value);
            }
        } else {
            ((ObjectNode) parent).set(last, value);
        }
    }

    private static void remove(ObjectNode root, String pointer) {
        JsonPointer p = JsonPointer.compile(pointer);
        JsonNode parent = root.at(p.head());
        if (parent instanceof ArrayNode array) {
            array.remove(p.last().getMatchingIndex());
        } else {
            ((ObjectNode) parent).remove(p.last().getMatchingProperty());
        }
    }

    // ---- goldens

    private static void golden(Path file, JsonNode actual) {
        golden(file, pretty(actual) + "\n");
    }

    private static void golden(Path file, String actual) {
        if (UPDATE) {
            try {
                Files.writeString(file, actual, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        if (!Files.exists(file)) {
            fail("missing golden " + ROOT.relativize(file) + "; run with -Dfixtures.update=true and review it");
        }
        String expected = readText(file);
        if (file.toString().endsWith(".json")) {
            expected = pretty(Json.parse(expected)) + "\n";
        }
        assertThat(actual).as("golden " + ROOT.relativize(file) + " (-Dfixtures.update=true rewrites it)")
                .isEqualTo(expected);
    }

    static String pretty(JsonNode node) {
        try {
            return PRETTY.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode readJson(Path file) {
        return Json.parse(readText(file));
    }

    static String readText(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
