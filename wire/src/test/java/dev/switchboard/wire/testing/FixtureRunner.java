package dev.switchboard.wire.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * The one golden-fixture runner of the wire formats. Each directory under {@code fixtures/<format>/} is
 * a case; which chains run depends on the input files it has (a chain may also start at its canonical
 * file, which is then an input):
 *
 * <pre>
 *   client-request.json    -> canonical-request.json  -> upstream-request.json   (or client-error.json)
 *   upstream-response.json -> canonical-response.json -> client-response.json   (or canonical-error.json and
 *                                                                               client-error.json when it failed)
 *   upstream-stream.sse    -> canonical-events.jsonl  -> client-stream.sse
 *   upstream-error.json    -> canonical-error.json    -> client-error.json
 * </pre>
 *
 * {@code upstream-error.json} is {@code {"status": n, "body": ...}} (a string body is sent as raw text);
 * {@code client-error.json} is {@code {"status": n, "body": envelope}}. {@code case.json} holds a format's
 * settings for the case. Canonical files are written by {@link CanonicalJson}, and every canonical golden
 * must read back as the object it was written from; upstream streams are parsed fed 7 bytes at a time and
 * whole, and must give the same events.
 *
 * <p>{@code fixtures/<format>/validation.json} is the format's table of refused requests: {@code base}
 * (a valid body) and {@code cases}, each building its body from {@code raw} text, a whole {@code body},
 * or the base changed by {@code patch} (top-level fields; null removes one), {@code remove} (JSON
 * pointers) and {@code set} (pointer to value), and expecting {@code status} (400 unless given),
 * {@code type} ({@code invalid_request_error} unless given), {@code param} (null for none) and a
 * {@code message} fragment.
 */
public final class FixtureRunner {
    private FixtureRunner() {
    }

    /** A container per case of {@code format}, then the validation table when there is one. */
    public static Stream<DynamicNode> run(FixtureFormat format) {
        List<Path> cases = Golden.cases(format.name());
        assertThat(cases).as("fixture cases of %s", format.name()).isNotEmpty();
        List<DynamicNode> out = new ArrayList<>();
        for (Path dir : cases) {
            out.add(DynamicTest.dynamicTest(dir.getFileName().toString(), () -> runCase(format, dir)));
        }
        Path table = Golden.root().resolve(format.name()).resolve("validation.json");
        if (Files.exists(table)) {
            out.add(validationTable(format, Golden.readJson(table)));
        }
        return out.stream();
    }

    private static void runCase(FixtureFormat format, Path dir) {
        JsonNode config = Files.exists(dir.resolve("case.json")) ? Golden.readJson(dir.resolve("case.json")) : Json.object();
        FixtureCase c = new FixtureCase(dir, config);
        boolean ran = requestChain(format, c);
        ran |= responseChain(format, c);
        ran |= streamChain(format, c);
        ran |= errorChain(format, c);
        assertThat(ran).as("case %s has no input file", c.name()).isTrue();
    }

    private static boolean requestChain(FixtureFormat format, FixtureCase c) {
        Optional<JsonNode> client = c.has("client-request.json")
                ? Optional.of(Golden.readJson(c.file("client-request.json"))) : Optional.empty();
        ChatRequest canonical;
        if (client.isPresent()) {
            try {
                canonical = format.fromClient(c, client.get());
            } catch (GatewayException e) {
                assertThat(c.file("canonical-request.json")).as("the request was expected to be valid").doesNotExist();
                Golden.json(c.file("client-error.json"), clientError(format, e.error()));
                return true;
            }
            assertThat(c.file("client-error.json")).as("the request was accepted").doesNotExist();
            JsonNode tree = CanonicalJson.tree(canonical);
            Golden.json(c.file("canonical-request.json"), tree);
            assertThat(CanonicalJson.request(tree)).as("the canonical golden reads back").isEqualTo(canonical);
        } else if (c.has("canonical-request.json")) {
            canonical = CanonicalJson.request(Golden.readJson(c.file("canonical-request.json")));
        } else {
            return false;
        }
        Optional<JsonNode> upstream = format.toUpstream(c, canonical);
        upstream.ifPresent(u -> Golden.json(c.file("upstream-request.json"), u));
        format.checkRequest(c, client, canonical, upstream);
        return true;
    }

    private static boolean responseChain(FixtureFormat format, FixtureCase c) {
        Optional<JsonNode> upstream = c.has("upstream-response.json")
                ? Optional.of(Golden.readJson(c.file("upstream-response.json"))) : Optional.empty();
        ChatResponse canonical;
        if (upstream.isPresent()) {
            try {
                canonical = format.fromUpstream(c, upstream.get());
            } catch (GatewayException e) {
                // An answer that says it failed (a Responses upstream's failed response): the error chain.
                assertThat(c.file("canonical-response.json")).as("the answer was expected to be read").doesNotExist();
                JsonNode tree = CanonicalJson.tree(e.error());
                Golden.json(c.file("canonical-error.json"), tree);
                Golden.json(c.file("client-error.json"), clientError(format, e.error()));
                return true;
            }
            JsonNode tree = CanonicalJson.tree(canonical);
            Golden.json(c.file("canonical-response.json"), tree);
            assertThat(CanonicalJson.response(tree)).as("the canonical golden reads back").isEqualTo(canonical);
        } else if (c.has("canonical-response.json")) {
            canonical = CanonicalJson.response(Golden.readJson(c.file("canonical-response.json")));
        } else {
            return false;
        }
        JsonNode client = format.toClient(c, canonical);
        Golden.json(c.file("client-response.json"), client);
        format.checkResponse(c, upstream, canonical, client);
        return true;
    }

    private static boolean streamChain(FixtureFormat format, FixtureCase c) {
        Optional<String> upstream = c.has("upstream-stream.sse")
                ? Optional.of(Golden.read(c.file("upstream-stream.sse"))) : Optional.empty();
        List<StreamEvent> events;
        if (upstream.isPresent()) {
            byte[] sse = upstream.get().getBytes(StandardCharsets.UTF_8);
            events = parseUpstream(format, c, sse, 7);
            assertThat(parseUpstream(format, c, sse, sse.length)).as("the same events whatever the network chunking")
                    .isEqualTo(events);
            List<String> lines = events.stream().map(CanonicalJson::compact).toList();
            Golden.jsonl(c.file("canonical-events.jsonl"), lines);
            assertThat(lines.stream().map(l -> CanonicalJson.event(Json.parse(l))).toList())
                    .as("the canonical golden reads back").isEqualTo(events);
        } else if (c.has("canonical-events.jsonl")) {
            events = readEvents(c.file("canonical-events.jsonl"));
        } else {
            return false;
        }
        String client = format.toClientStream(c, events);
        Golden.text(c.file("client-stream.sse"), client);
        format.checkStream(c, upstream, events, client);
        return true;
    }

    private static boolean errorChain(FixtureFormat format, FixtureCase c) {
        GatewayError error;
        if (c.has("upstream-error.json")) {
            JsonNode input = Golden.readJson(c.file("upstream-error.json"));
            JsonNode body = input.path("body");
            byte[] bytes = body.isTextual() ? body.textValue().getBytes(StandardCharsets.UTF_8) : Json.writeBytes(body);
            error = format.errorFromUpstream(input.path("status").asInt(), bytes);
            JsonNode tree = CanonicalJson.tree(error);
            Golden.json(c.file("canonical-error.json"), tree);
            assertThat(CanonicalJson.error(tree)).as("the canonical golden reads back").isEqualTo(error);
        } else if (c.has("canonical-error.json")) {
            error = CanonicalJson.error(Golden.readJson(c.file("canonical-error.json")));
        } else {
            return false;
        }
        Golden.json(c.file("client-error.json"), clientError(format, error));
        return true;
    }

    private static JsonNode clientError(FixtureFormat format, GatewayError error) {
        ObjectNode out = Json.object().put("status", error.status());
        out.set("body", format.errorBody(error));
        return out;
    }

    /** The canonical events of an upstream stream fed in pieces of {@code chunk} bytes. */
    public static List<StreamEvent> parseUpstream(FixtureFormat format, FixtureCase c, byte[] sse, int chunk) {
        FixtureFormat.StreamParser parser = format.streamParser(c);
        List<StreamEvent> out = new ArrayList<>();
        for (SseEvent e : Golden.events(sse, chunk)) {
            out.addAll(parser.onEvent(e));
        }
        out.addAll(parser.onEnd());
        return out;
    }

    /** The events of a {@code canonical-events.jsonl} file. */
    public static List<StreamEvent> readEvents(Path file) {
        return Golden.readLines(file).stream().map(l -> CanonicalJson.event(Json.parse(l))).toList();
    }

    // ---- the validation table

    private static DynamicNode validationTable(FixtureFormat format, JsonNode table) {
        List<DynamicNode> tests = new ArrayList<>();
        if (table.has("base")) {
            tests.add(DynamicTest.dynamicTest("the base is valid",
                    () -> format.fromClient(Json.writeBytes(table.get("base")), Json.object())));
        }
        for (JsonNode row : table.path("cases")) {
            tests.add(DynamicTest.dynamicTest(row.path("name").asText(), () -> refused(format, table, row)));
        }
        assertThat(tests).as("validation rows of %s", format.name()).hasSizeGreaterThan(1);
        return DynamicContainer.dynamicContainer("validation", tests);
    }

    private static void refused(FixtureFormat format, JsonNode table, JsonNode row) {
        assertThat(row.has("param")).as("the row names the param it expects (null for none)").isTrue();
        byte[] body = body(table, row);
        GatewayException thrown = catchThrowableOfType(GatewayException.class, () -> format.fromClient(body, row));
        assertThat(thrown).as("the request is refused with a GatewayException").isNotNull();
        GatewayError e = thrown.error();
        assertThat(e.status()).isEqualTo(row.path("status").asInt(400));
        assertThat(e.type()).isEqualTo(row.path("type").asText("invalid_request_error"));
        assertThat(e.retryable()).isFalse();
        JsonNode param = row.get("param");
        assertThat(e.param()).isEqualTo(param.isNull() ? Optional.empty() : Optional.of(param.asText()));
        if (row.has("message")) {
            assertThat(e.message()).contains(row.path("message").asText());
        }
        JsonNode envelope = format.errorBody(e).path("error");
        assertThat(envelope.path("code").asText()).isEqualTo(Integer.toString(e.status()));
        assertThat(envelope.path("param")).isEqualTo(param.isNull() ? Json.MAPPER.nullNode() : param);
    }

    private static byte[] body(JsonNode table, JsonNode row) {
        if (row.has("raw")) {
            return row.path("raw").asText().getBytes(StandardCharsets.UTF_8);
        }
        if (row.has("body")) {
            return Json.writeBytes(row.get("body"));
        }
        ObjectNode b = table.path("base").deepCopy();
        for (Map.Entry<String, JsonNode> e : row.path("patch").properties()) {
            if (e.getValue().isNull()) {
                b.remove(e.getKey());
            } else {
                b.set(e.getKey(), e.getValue().deepCopy());
            }
        }
        row.path("remove").forEach(pointer -> remove(b, JsonPointer.compile(pointer.asText())));
        for (Map.Entry<String, JsonNode> e : row.path("set").properties()) {
            set(b, JsonPointer.compile(e.getKey()), e.getValue().deepCopy());
        }
        return Json.writeBytes(b);
    }

    private static void set(ObjectNode root, JsonPointer p, JsonNode value) {
        JsonNode parent = root.at(p.head());
        if (parent instanceof ArrayNode array) {
            int i = p.last().getMatchingIndex();
            if (i >= 0 && i < array.size()) {
                array.set(i, value);
            } else {
                array.add(value);
            }
        } else {
            ((ObjectNode) parent).set(p.last().getMatchingProperty(), value);
        }
    }

    private static void remove(ObjectNode root, JsonPointer p) {
        JsonNode parent = root.at(p.head());
        if (parent instanceof ArrayNode array) {
            array.remove(p.last().getMatchingIndex());
        } else {
            ((ObjectNode) parent).remove(p.last().getMatchingProperty());
        }
    }
}
