package dev.switchboard.testkit.it.conformance;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.FakeUpstream;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The conformance matrix (issue 6, item 7): every client format x every upstream format x {plain, streamed}
 * x every {@link Feature}, through one gateway, against the fake upstream. Each cell sends one request with
 * a raw-HTTP {@link ClientDriver}, checks the answer for the feature, and checks the one request the fake
 * received: well-formed for its format ({@link UpstreamFormat#problems}) and carrying the feature in the
 * format's native shape.
 *
 * <p>The cells that cannot pass by nature are listed, with their reasons, in {@link #IMPOSSIBLE} and
 * nowhere else. Every other cell must pass; a listed one that passes fails too, so the list stays true.
 * At the end of a full run the result is written to {@code docs/conformance.md}.
 */
class ConformanceMatrixIT {

    /** The cells that cannot pass by nature. The one place they are listed. */
    static final List<Impossibility> IMPOSSIBLE = List.of(
            new Impossibility(Client.MESSAGES, null, Feature.JSON,
                    "The Messages format has no schema-less JSON mode: `output_config.format` takes only "
                            + "`json_schema` (see the schema column)."));

    /** The trace the fake upstream reasons with whenever a request asks it to. */
    static final String FAKE_REASONING = "Let me think about this request step by step before answering.";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(MatrixConfig.yaml());

    private static final Map<Cell, Outcome> OUTCOMES = new ConcurrentHashMap<>();
    private static long startedNanos;

    @BeforeAll
    static void scriptUpstream() {
        startedNanos = System.nanoTime();
        FakeUpstream fake = GATEWAY.gateway().upstream();
        fake.requireKey(Arrays.stream(Upstream.values()).map(u -> u.key).toArray(String[]::new));
        // The fake's own answers are prose; JSON cells get an answer that is JSON exactly when the request
        // asked for JSON output in its format's own way.
        for (Upstream u : Upstream.values()) {
            for (Feature f : List.of(Feature.JSON, Feature.SCHEMA)) {
                fake.script(u.upstreamModel(f), (request, exchange) -> {
                    boolean asked = f == Feature.JSON ? u.format.jsonMode(request).isPresent()
                            : u.format.schema(request).isPresent();
                    u.format.answer(request, exchange, asked ? Fixtures.JSON_ANSWER : Fixtures.PROSE_ANSWER);
                });
            }
        }
    }

    @TestFactory
    Stream<DynamicNode> matrix() {
        return Arrays.stream(Mode.values()).map(mode -> DynamicContainer.dynamicContainer(mode.title(),
                Arrays.stream(Client.values()).map(client -> DynamicContainer.dynamicContainer(client.title,
                        Arrays.stream(Upstream.values()).flatMap(upstream -> Arrays.stream(Feature.values()).map(feature -> {
                            Cell cell = new Cell(mode, client, upstream, feature);
                            return DynamicTest.dynamicTest(upstream.title + " " + feature.id(), () -> check(cell));
                        }))))));
    }

    private static void check(Cell cell) {
        Outcome outcome = run(cell);
        OUTCOMES.put(cell, outcome);
        if (!outcome.breaksTheBuild()) {
            return;
        }
        if (outcome.impossible().isPresent()) {
            fail(cell + " is listed as impossible (" + outcome.impossible().get().reason()
                    + ") but passes: take it off ConformanceMatrixIT.IMPOSSIBLE");
        }
        fail(cell + ":\n  - " + String.join("\n  - ", outcome.failures()));
    }

    static Optional<Impossibility> impossibility(Cell cell) {
        return IMPOSSIBLE.stream().filter(i -> i.covers(cell)).findFirst();
    }

    private static Outcome run(Cell cell) {
        Optional<Impossibility> impossible = impossibility(cell);
        ClientDriver driver = cell.client().driver;
        Upstream up = cell.upstream();
        String model = up.model(cell.feature());
        if (driver.body(model, cell.feature(), cell.mode().streamed()).isEmpty()) {
            return new Outcome(cell, List.of(cell.client().title + " has no way to ask for " + cell.feature().title
                    + (impossible.isPresent() ? "" : " (list the cell in IMPOSSIBLE with the reason, or teach the driver)")),
                    impossible, false);
        }
        TestGateway gateway = GATEWAY.gateway();
        gateway.upstream().reset();
        ClientDriver.Exchange exchange = driver.send(gateway.baseUrl(), gateway.apiKey(), model, cell.feature(),
                cell.mode().streamed());
        List<RecordedRequest> received = gateway.upstream().received(up.upstreamModel(cell.feature()));

        List<String> failures = new ArrayList<>();
        checkAnswer(cell, driver, exchange.result(), failures);
        if (received.size() != 1) {
            failures.add("the upstream got " + received.size() + " requests for " + up.upstreamModel(cell.feature())
                    + ", not exactly one");
        }
        if (!received.isEmpty()) {
            checkUpstreamRequest(cell, received.getLast(), failures);
        }
        if (!failures.isEmpty()) {
            failures.add("client request: " + exchange.method() + " " + exchange.path() + " "
                    + Fixtures.excerpt(exchange.requestBody(), 600));
            failures.add("answer: HTTP " + exchange.result().status() + " " + Fixtures.excerpt(exchange.result().body(), 600));
            received.forEach(r -> failures.add("upstream request: " + r.method() + " " + r.path()
                    + (r.query().isEmpty() ? "" : "?" + r.query()) + " " + Fixtures.excerpt(r.bodyText(), 600)));
        }
        return new Outcome(cell, failures, impossible, true);
    }

    /** What the client must see, per feature. */
    private static void checkAnswer(Cell cell, ClientDriver driver, Result r, List<String> failures) {
        if (r.status() != 200) {
            failures.add("HTTP " + r.status() + " instead of 200: " + Fixtures.excerpt(r.body(), 300));
            return;
        }
        r.problems().forEach(p -> failures.add("answer framing: " + p));
        if (!r.usage()) {
            failures.add("the answer reports no usage");
        }
        String echo = "Hello from " + cell.upstream().upstreamModel(cell.feature()) + "! You said: " + Fixtures.PROMPT;
        Result.Finish finish = cell.feature() == Feature.TOOLS && driver.hasToolFinish()
                ? Result.Finish.TOOL_CALLS
                : Result.Finish.STOP;
        if (r.finish() != finish) {
            failures.add("finish reason " + r.finish() + " instead of " + finish);
        }
        switch (cell.feature()) {
            case TEXT, IMAGE -> expectText(r, echo, failures);
            case TOOLS -> {
                if (r.toolCalls().size() != 1) {
                    failures.add(r.toolCalls().size() + " tool calls instead of one: " + r.toolCalls());
                } else {
                    Result.ToolCall call = r.toolCalls().getFirst();
                    if (!call.name().equals(Fixtures.TOOL_NAME)) {
                        failures.add("a call to \"" + call.name() + "\" instead of " + Fixtures.TOOL_NAME);
                    }
                    if (!call.arguments().isObject()) {
                        failures.add("call arguments are not a JSON object: " + call.arguments());
                    } else if (!call.arguments().equals(Fixtures.EXPECTED_ARGUMENTS)) {
                        failures.add("call arguments " + call.arguments() + " instead of " + Fixtures.EXPECTED_ARGUMENTS);
                    }
                }
            }
            case REASONING -> {
                expectText(r, echo, failures);
                if (r.reasoning().isEmpty()) {
                    failures.add("no reasoning trace in the format's reasoning field");
                } else if (!r.reasoning().equals(FAKE_REASONING)) {
                    failures.add("reasoning trace \"" + Fixtures.excerpt(r.reasoning(), 120) + "\" instead of \""
                            + FAKE_REASONING + "\"");
                }
            }
            case JSON, SCHEMA -> {
                Optional<JsonNode> json = Fixtures.parse(r.text());
                if (json.isEmpty() || !json.get().isObject()) {
                    failures.add("the answer text is not a JSON object: \"" + Fixtures.excerpt(r.text(), 120) + "\"");
                } else if (!json.get().equals(Fixtures.object(Fixtures.JSON_ANSWER))) {
                    failures.add("the answer " + json.get() + " is not the upstream's " + Fixtures.JSON_ANSWER);
                }
            }
        }
    }

    private static void expectText(Result r, String expected, List<String> failures) {
        if (!r.text().equals(expected)) {
            failures.add("text \"" + Fixtures.excerpt(r.text(), 160) + "\" instead of \"" + expected + "\"");
        }
    }

    /** What the upstream must have received, per feature, beside being well-formed. */
    private static void checkUpstreamRequest(Cell cell, RecordedRequest request, List<String> failures) {
        UpstreamFormat format = cell.upstream().format;
        format.problems(request, cell.upstream().key).forEach(p -> failures.add("malformed upstream request: " + p));
        // every call to a provider that can stream is streamed; a whole answer is assembled from the events
        if (!format.streamed(request)) {
            failures.add("the upstream request is not streamed (the client's is " + (cell.mode().streamed() ? "" : "not ")
                    + "streamed; the gateway streams every call to a provider that can stream)");
        }
        switch (cell.feature()) {
            case TEXT -> { }
            case TOOLS -> {
                if (!format.toolNames(request).equals(List.of(Fixtures.TOOL_NAME))) {
                    failures.add("the upstream was offered " + format.toolNames(request) + " instead of ["
                            + Fixtures.TOOL_NAME + "]");
                }
            }
            case REASONING -> {
                if (format.reasoning(request).isEmpty()) {
                    failures.add("the upstream request does not ask for reasoning in its native shape");
                }
            }
            case IMAGE -> {
                if (!format.pngData(request).equals(List.of(Fixtures.PNG_BASE64))) {
                    failures.add("the upstream request does not carry the PNG as one native image part (found "
                            + format.pngData(request).size() + ")");
                }
            }
            case JSON -> {
                if (format.jsonMode(request).isEmpty()) {
                    failures.add("the upstream request has no native JSON mode");
                }
            }
            case SCHEMA -> {
                Optional<JsonNode> schema = format.schema(request);
                if (schema.isEmpty()) {
                    failures.add("the upstream request carries no JSON Schema in its native place");
                } else if (!schema.get().path("properties").has("city") || !schema.get().path("properties").has("temp_c")) {
                    failures.add("the upstream's schema lost the properties: " + schema.get());
                }
            }
        }
    }

    @AfterAll
    static void writeReport() {
        Duration took = Duration.ofNanos(System.nanoTime() - startedNanos);
        int total = Mode.values().length * Client.values().length * Upstream.values().length * Feature.values().length;
        MatrixReport report = new MatrixReport(OUTCOMES, IMPOSSIBLE);
        System.out.println("[conformance] " + report.summary() + " in " + took.toMillis() + " ms");
        OUTCOMES.values().stream().filter(o -> o.impossible().isPresent() && o.ran())
                .sorted(java.util.Comparator.comparing(o -> o.cell().toString()))
                .forEach(o -> System.out.println("[conformance] documented impossibility " + o.cell() + ": "
                        + (o.failures().isEmpty() ? "passes" : o.failures().getFirst())));
        if (OUTCOMES.size() != total) {
            System.out.println("[conformance] partial run (" + OUTCOMES.size() + " of " + total
                    + " cells): docs/conformance.md left as it is");
            return;
        }
        Path docs = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).resolve("../docs")
                .toAbsolutePath().normalize();
        Path file = docs.resolve("conformance.md");
        String markdown = report.markdown();
        try {
            if (Files.isDirectory(docs)
                    && !(Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).equals(markdown))) {
                Files.writeString(file, markdown, StandardCharsets.UTF_8);
                System.out.println("[conformance] wrote " + file);
            }
        } catch (IOException e) {
            // A read-only checkout still gets the verdict: the cells pass or fail on their own.
            System.out.println("[conformance] could not write " + file + ": " + e);
        }
    }
}
