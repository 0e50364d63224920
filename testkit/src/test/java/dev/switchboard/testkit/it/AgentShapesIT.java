package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static dev.switchboard.testkit.GatewayConfigSupport.untimedProvider;
import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.models.ModelInfo;
import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.AccessLogCapture;
import dev.switchboard.testkit.FakeUpstream;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request shapes coding agents send (the agent suite records them; these tests pin them without the
 * agents): system entries inside the messages format's {@code messages}, the Responses format's
 * {@code additional_tools} items with {@code namespace} groups and {@code custom} grammar tools, a hosted
 * {@code web_search} tool, content-parts {@code :countTokens}, the Anthropic SDK's model list, and what the
 * access log says about a refused request. Each upstream format is checked for what it receives, and the
 * client for what it gets back.
 */
class AgentShapesIT {
    private static final String KEY = "sk-upstream-shapes-0123456789";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(TestGateway.DEFAULT_HEADER
            + providers(ItSupport.providerPerFormat(KEY))
            + untimedProvider("rsp", "openai-responses", "${UPSTREAM_OPENAI}", KEY)
            + models(
                    model("m-ant").limits(200000, 8192).supports("tools", "caching").pricing("{input: 1, output: 2}")
                            .route("ant/up-ant"),
                    model("m-oai").limits(200000, 8192).supports("tools").pricing("{input: 1, output: 2}").route("oai/up-oai"),
                    model("m-gem").limits(200000, 8192).supports("tools").pricing("{input: 1, output: 2}").route("gem/up-gem"),
                    model("m-rsp").limits(200000, 8192).supports("tools").pricing("{input: 1, output: 2}").route("rsp/up-rsp")));

    private static Map<String, String> messagesHeaders(TestGateway g) {
        return Map.of("x-api-key", g.apiKey(), "anthropic-version", "2023-06-01", "content-type", "application/json");
    }

    /** Claude Code's shape: the user's turn, then a system entry with a cache marker. */
    private static String withSystemEntry(String model) {
        return """
                {"model": "%s", "max_tokens": 256, "system": [{"type": "text", "text": "You are a coding agent."}],
                 "messages": [
                   {"role": "user", "content": [{"type": "text", "text": "Read notes.txt"}]},
                   {"role": "system", "content": [{"type": "text", "text": "Environment: working directory /work.",
                                                   "cache_control": {"type": "ephemeral"}}]}
                 ]}
                """.formatted(model);
    }

    @ParameterizedTest
    @ValueSource(strings = {"m-ant", "m-oai", "m-gem"})
    void systemEntryBetweenTurnsReachesEveryUpstream(String model) {
        TestGateway g = GATEWAY.gateway();
        HttpResponse<String> r = ItSupport.post(g, "/v1/messages", messagesHeaders(g), withSystemEntry(model));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("Read notes.txt");
        JsonNode sent = g.upstream().received().getLast().json();
        switch (model) {
            case "m-ant" -> {
                JsonNode entry = sent.path("messages").get(1);
                assertThat(entry.path("role").asText()).isEqualTo("system");
                assertThat(entry.path("content").get(0).path("text").asText()).isEqualTo("Environment: working directory /work.");
                assertThat(entry.path("content").get(0).path("cache_control").path("type").asText()).isEqualTo("ephemeral");
                assertThat(sent.path("system").toString()).contains("You are a coding agent.");
            }
            case "m-oai" -> {
                JsonNode messages = sent.path("messages");
                assertThat(messages.get(0).path("role").asText()).isEqualTo("system");
                assertThat(messages.get(1).path("role").asText()).isEqualTo("user");
                assertThat(messages.get(2).path("role").asText()).isEqualTo("system");
                assertThat(messages.get(2).path("content").asText()).isEqualTo("Environment: working directory /work.");
            }
            default -> {
                JsonNode parts = sent.path("systemInstruction").path("parts");
                assertThat(parts.get(0).path("text").asText()).isEqualTo("You are a coding agent.");
                assertThat(parts.get(1).path("text").asText()).isEqualTo("Environment: working directory /work.");
                assertThat(sent.path("contents")).hasSize(1);
            }
        }
    }

    /** Codex's {@code exec} tool as it sends it: free text constrained by a Lark grammar. */
    private static final String EXEC_FORMAT = """
            {"type": "grammar", "syntax": "lark", "definition": "start: SOURCE\\nSOURCE: /[\\\\s\\\\S]+/"}""";

    /** Codex's shape: tools in an additional_tools item, a namespace holding a custom grammar tool and a function. */
    private static String codexTurn(String model, String extraInput) {
        return """
                {"model": "%s", "store": false, "stream": false, "tools": [{"type": "web_search"}],
                 "text": {"verbosity": "low"}, "reasoning": {"context": "all_turns"}, "client_metadata": {"session_id": "s1"},
                 "input": [
                   {"type": "additional_tools", "role": "developer", "tools": [
                     {"type": "namespace", "name": "functions", "description": "", "tools": [
                       {"type": "custom", "name": "exec", "description": "Run JavaScript.", "format": %s},
                       {"type": "function", "name": "wait", "description": "Wait.", "strict": false,
                        "parameters": {"type": "object", "properties": {"cell_id": {"type": "string"}}, "required": ["cell_id"]}}
                     ]}
                   ]},
                   {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "Be brief."}]},
                   {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Run it."}]}%s
                 ]}
                """.formatted(model, EXEC_FORMAT, extraInput);
    }

    @ParameterizedTest
    @ValueSource(strings = {"m-ant", "m-oai", "m-gem", "m-rsp"})
    void customAndNamespacedToolsRoundTripThroughEveryUpstream(String model) {
        TestGateway g = GATEWAY.gateway();
        g.upstream().preferCalls(List.of(new FakeUpstream.PreferredCall("functions__exec", "{\"input\":\"text(6 * 7)\"}")));
        try {
            HttpResponse<String> first = ItSupport.post(g, "/v1/responses", ItSupport.bearer(g.apiKey()), codexTurn(model, ""));

            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
            assertThat(first.headers().firstValue("x-switchboard-dropped-tools")).contains("web_search");
            JsonNode call = ItSupport.json(first.body()).path("output").get(0);
            assertThat(call.path("type").asText()).isEqualTo("custom_tool_call");
            assertThat(call.path("name").asText()).isEqualTo("exec");
            assertThat(call.path("namespace").asText()).isEqualTo("functions");
            assertThat(call.path("input").asText()).isEqualTo("text(6 * 7)");
            RecordedRequest asked = g.upstream().received().getLast();
            String tools = asked.bodyText();
            assertThat(tools).contains("functions__exec", "functions__wait").doesNotContain("web_search");
            if (model.equals("m-rsp")) {
                // Native at a Responses upstream: a custom tool with Codex's grammar exactly, no function in between.
                JsonNode exec = toolNamed(asked.json(), "functions__exec");
                assertThat(exec.path("type").asText()).isEqualTo("custom");
                assertThat(exec.path("description").asText()).isEqualTo("Run JavaScript.");
                assertThat(exec.path("format")).isEqualTo(ItSupport.json(EXEC_FORMAT));
                assertThat(exec.has("parameters")).isFalse();
                assertThat(tools).as("the format's own extras; reasoning.context only to a model that reasons")
                        .contains("verbosity", "client_metadata").doesNotContain("all_turns");
            } else {
                assertThat(tools).contains("lark grammar").doesNotContain("all_turns").doesNotContain("verbosity")
                        .doesNotContain("client_metadata");
            }

            String replay = ",\n" + ItSupport.JSON.createObjectNode().put("type", "custom_tool_call")
                    .put("call_id", call.path("call_id").asText()).put("name", "exec").put("namespace", "functions")
                    .put("input", "text(6 * 7)") + ",\n"
                    + ItSupport.JSON.createObjectNode().put("type", "custom_tool_call_output")
                    .put("call_id", call.path("call_id").asText()).put("output", "42");
            HttpResponse<String> second = ItSupport.post(g, "/v1/responses", ItSupport.bearer(g.apiKey()), codexTurn(model, replay));

            assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
            assertThat(ItSupport.json(second.body()).path("output").get(0).path("content").get(0).path("text").asText())
                    .isEqualTo("Tool result received: 42");
            RecordedRequest upstream = g.upstream().received().getLast();
            assertThat(upstream.bodyText()).contains("text(6 * 7)").contains("functions__exec");
            if (model.equals("m-rsp")) {
                List<JsonNode> replayed = new java.util.ArrayList<>();
                upstream.json().path("input").forEach(i -> {
                    if (i.path("type").asText().startsWith("custom_tool_call")) {
                        replayed.add(i);
                    }
                });
                assertThat(replayed).as("the call and its output replayed as custom items").hasSize(2);
                assertThat(replayed.get(0).path("type").asText()).isEqualTo("custom_tool_call");
                assertThat(replayed.get(0).path("name").asText()).isEqualTo("functions__exec");
                assertThat(replayed.get(0).path("input").asText()).isEqualTo("text(6 * 7)");
                assertThat(replayed.get(1).path("type").asText()).isEqualTo("custom_tool_call_output");
                assertThat(replayed.get(1).path("output").asText()).isEqualTo("42");
                assertThat(replayed.get(1).path("call_id")).isEqualTo(replayed.get(0).path("call_id"));
            }
        } finally {
            g.upstream().preferCalls(List.of());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"m-oai", "m-rsp"})
    void streamedCustomCallsArriveAsCustomToolCallItems(String model) {
        TestGateway g = GATEWAY.gateway();
        g.upstream().preferCalls(List.of(new FakeUpstream.PreferredCall("functions__exec", "{\"input\":\"text(1)\"}")));
        try {
            String body = codexTurn(model, "").replace("\"stream\": false", "\"stream\": true");
            HttpResponse<String> r = ItSupport.post(g, "/v1/responses", ItSupport.bearer(g.apiKey()), body);

            assertThat(r.statusCode()).isEqualTo(200);
            List<JsonNode> events = ItSupport.sseData(r.body()).stream().map(ItSupport::json).toList();
            assertThat(events).anySatisfy(e -> {
                assertThat(e.path("type").asText()).isEqualTo("response.custom_tool_call_input.done");
                assertThat(e.path("input").asText()).isEqualTo("text(1)");
            });
            JsonNode done = events.stream().filter(e -> e.path("type").asText().equals("response.output_item.done"))
                    .findFirst().orElseThrow().path("item");
            assertThat(done.path("type").asText()).isEqualTo("custom_tool_call");
            assertThat(done.path("namespace").asText()).isEqualTo("functions");
            assertThat(done.path("input").asText()).isEqualTo("text(1)");
        } finally {
            g.upstream().preferCalls(List.of());
        }
    }

    private static JsonNode toolNamed(JsonNode body, String name) {
        for (JsonNode t : body.path("tools")) {
            if (t.path("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no tool " + name + " in " + body.path("tools"));
    }

    @Test
    void otherHostedToolsAreRefusedByName() {
        TestGateway g = GATEWAY.gateway();
        HttpResponse<String> r = ItSupport.post(g, "/v1/responses", ItSupport.bearer(g.apiKey()),
                "{\"model\": \"m-oai\", \"input\": \"hi\", \"tools\": [{\"type\": \"file_search\", \"vector_store_ids\": [\"vs_1\"]}]}");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(ItSupport.json(r.body()).path("error").path("param").asText()).isEqualTo("tools[0].type");
        assertThat(ItSupport.json(r.body()).path("error").path("message").asText()).contains("file_search");
        assertThat(g.upstream().received()).isEmpty();
    }

    @Test
    void countTokensOnContentPartsRoutesIsTheMessagesEstimate() {
        TestGateway g = GATEWAY.gateway();
        String text = "Count these words for me, please, as an estimate.";
        HttpResponse<String> gemini = ItSupport.post(g, "/v1beta/models/m-gem:countTokens", Map.of("x-goog-api-key", g.apiKey()),
                "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"" + text + "\"}]}]}");
        HttpResponse<String> wrapped = ItSupport.post(g, "/v1beta/models/m-gem:countTokens", Map.of("x-goog-api-key", g.apiKey()),
                "{\"generateContentRequest\": {\"model\": \"models/m-gem\", \"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \""
                        + text + "\"}]}]}}");
        HttpResponse<String> messages = ItSupport.post(g, "/v1/messages/count_tokens", messagesHeaders(g),
                "{\"model\": \"m-gem\", \"messages\": [{\"role\": \"user\", \"content\": \"" + text + "\"}]}");

        assertThat(gemini.statusCode()).as(gemini.body()).isEqualTo(200);
        long tokens = ItSupport.json(gemini.body()).path("totalTokens").asLong();
        assertThat(tokens).isPositive().isEqualTo(ItSupport.json(messages.body()).path("input_tokens").asLong());
        assertThat(ItSupport.json(wrapped.body()).path("totalTokens").asLong()).isEqualTo(tokens);
        assertThat(g.upstream().received()).as("never sent upstream").isEmpty();
    }

    @Test
    void theAnthropicSdkListsModelsWithItsKeyHeader() {
        TestGateway g = GATEWAY.gateway();
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(g.baseUrl()).apiKey(g.apiKey()).build();
        try {
            List<String> ids = client.models().list().data().stream().map(ModelInfo::id).toList();
            assertThat(ids).contains("m-ant", "m-oai", "m-gem");
            ModelInfo first = client.models().list().data().getFirst();
            assertThat(first.displayName()).isNotBlank();
            assertThat(first.createdAt()).isNotNull();
        } finally {
            client.close();
        }
    }

    @Test
    void aRefusedRequestsLogLineSaysWhatWasWrong() {
        TestGateway g = GATEWAY.gateway();
        try (AccessLogCapture log = AccessLogCapture.open()) {
            HttpResponse<String> r = ItSupport.post(g, "/v1/messages", messagesHeaders(g),
                    "{\"model\": \"m-ant\", \"max_tokens\": 10, \"messages\": [{\"role\": \"tool\", \"content\": \"x\"}]}");

            assertThat(r.statusCode()).isEqualTo(400);
            // this request's line: an earlier stream's line may still be on its way
            String id = r.headers().firstValue("x-request-id").orElseThrow();
            AccessLogCapture.Line line = log.await(l -> l.field("request_id").filter(id::equals).isPresent());
            assertThat(line.status()).isEqualTo(400);
            assertThat(line.field("error_type")).contains("invalid_request_error");
            assertThat(line.field("error_param")).contains("messages[0].role");
            assertThat(line.field("error_message")).hasValueSatisfying(m -> assertThat(m).contains("`messages[0].role` must be"));
        }
    }
}
