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
import dev.switchboard.wire.internal.EventStreamWriter;
import dev.switchboard.wire.sse.SseEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
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
        Optional<JsonNode> client = input(c, "client-request.json");
        Optional<ChatRequest> accepted = unlessRefused(() -> client.map(body -> format.fromClient().apply(c, body)), error -> {
            assertThat(c.file("canonical-request.json")).as("the request was expected to be valid").doesNotExist();
            Golden.json(c.file("client-error.json"), clientError(format, error));
        });
        accepted.ifPresent(request -> assertThat(c.file("client-error.json")).as("the request was accepted").doesNotExist());
        Optional<ChatRequest> canonical = canonical(c, "canonical-request.json", accepted, CanonicalJson::request);
        canonical.ifPresent(request -> {
            Optional<JsonNode> upstream = format.toUpstream().apply(c, request);
            upstream.ifPresent(u -> Golden.json(c.file("upstream-request.json"), u));
            format.checks().checkRequest(c, client, request, upstream);
        });
        return client.isPresent() || canonical.isPresent();
    }

    private static boolean responseChain(FixtureFormat format, FixtureCase c) {
        Optional<JsonNode> upstream = input(c, "upstream-response.json");
        // An answer that says it failed (a Responses upstream's failed response) goes down the error chain.
        Optional<ChatResponse> read = unlessRefused(() -> upstream.map(body -> format.fromUpstream().apply(c, body)), error -> {
            assertThat(c.file("canonical-response.json")).as("the answer was expected to be read").doesNotExist();
            errorChain(format, c, Optional.of(error));
        });
        Optional<ChatResponse> canonical = canonical(c, "canonical-response.json", read, CanonicalJson::response);
        canonical.ifPresent(response -> {
            JsonNode client = format.toClient().apply(c, response);
            Golden.json(c.file("client-response.json"), client);
            format.checks().checkResponse(c, upstream, response, client);
        });
        return upstream.isPresent() || canonical.isPresent();
    }

    /**
     * What {@code translation} gives; empty when it refused its input (a {@link GatewayException}), whose error
     * then went to {@code refused}.
     */
    private static <T> Optional<T> unlessRefused(Supplier<Optional<T>> translation, Consumer<GatewayError> refused) {
        try {
            return translation.get();
        } catch (GatewayException e) {
            refused.accept(e.error());
            return Optional.empty();
        }
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
        String client = render(format.clientStreamWriter().apply(c), events);
        Golden.text(c.file("client-stream.sse"), client);
        format.checks().checkStream(c, upstream, events, client);
        return true;
    }

    private static boolean errorChain(FixtureFormat format, FixtureCase c) {
        return errorChain(format, c, input(c, "upstream-error.json").map(input -> {
            JsonNode body = input.path("body");
            byte[] bytes = body.isTextual() ? body.textValue().getBytes(StandardCharsets.UTF_8) : Json.writeBytes(body);
            return format.errorFromUpstream().read(input.path("status").asInt(), bytes);
        }));
    }

    /** The error chain from an error {@code translated} from an upstream's answer (or, without one, its canonical golden). */
    private static boolean errorChain(FixtureFormat format, FixtureCase c, Optional<GatewayError> translated) {
        Optional<GatewayError> canonical = canonical(c, "canonical-error.json", translated, CanonicalJson::error);
        canonical.ifPresent(error -> Golden.json(c.file("client-error.json"), clientError(format, error)));
        return canonical.isPresent();
    }

    /** A chain's input file, when the case has it. */
    private static Optional<JsonNode> input(FixtureCase c, String file) {
        return c.has(file) ? Optional.of(Golden.readJson(c.file(file))) : Optional.empty();
    }

    /**
     * A chain's canonical object: the one {@code translated} from the chain's input, compared with its golden
     * {@code file} and read back from it; without an input, the golden itself as the input; empty when the case
     * has neither.
     */
    private static <T> Optional<T> canonical(FixtureCase c, String file, Optional<T> translated, Function<JsonNode, T> reader) {
        if (translated.isEmpty()) {
            return c.has(file) ? Optional.of(reader.apply(Golden.readJson(c.file(file)))) : Optional.empty();
        }
        JsonNode tree = CanonicalJson.tree(translated.get());
        Golden.json(c.file(file), tree);
        assertThat(reader.apply(tree)).as("the canonical golden reads back").isEqualTo(translated.get());
        return translated;
    }

    private static JsonNode clientError(FixtureFormat format, GatewayError error) {
        ObjectNode out = Json.object().put("status", error.status());
        out.set("body", format.errorBody().apply(error));
        return out;
    }

    /** The whole client stream for {@code events}, as {@code writer} (fresh, one per stream) sends it. */
    public static String render(EventStreamWriter writer, List<StreamEvent> events) {
        StringBuilder out = new StringBuilder();
        events.forEach(e -> out.append(writer.write(e)));
        return out.toString();
    }

    /** The canonical events of an upstream stream fed in pieces of {@code chunk} bytes. */
    public static List<StreamEvent> parseUpstream(FixtureFormat format, FixtureCase c, byte[] sse, int chunk) {
        FixtureFormat.StreamParser parser = format.streamParser().apply(c);
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
                    () -> readRow(format, Json.writeBytes(table.get("base")), Json.object())));
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
        GatewayException thrown = catchThrowableOfType(GatewayException.class, () -> readRow(format, body, row));
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
        JsonNode envelope = format.errorBody().apply(e).path("error");
        assertThat(envelope.path("code").asText()).isEqualTo(Integer.toString(e.status()));
        assertThat(envelope.path("param")).isEqualTo(param.isNull() ? Json.MAPPER.nullNode() : param);
    }

    /** A body of the validation table read as a client's request; the row is the case's settings. */
    private static ChatRequest readRow(FixtureFormat format, byte[] body, JsonNode row) {
        return format.fromClient().apply(new FixtureCase(Golden.root().resolve(format.name()), row), Json.parse(body));
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
