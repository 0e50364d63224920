package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.providerLine;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static dev.switchboard.testkit.GatewayConfigSupport.untimedProvider;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What each upstream format receives, judged at the fake upstream: nothing the caller did not send, schemas
 * in the target's vocabulary, {@code strict} only where it holds, a short {@code user}, Gemini's ranges and
 * budgets, thinking kept hidden when the caller turned it off.
 */
class UpstreamRulesIT {
    private static final String KEY = "sk-upstream-rules-0123456789";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(TestGateway.DEFAULT_HEADER
            + providers(ItSupport.providerPerFormat(KEY))
            + untimedProvider("resp", "openai-responses", "${UPSTREAM_OPENAI}", KEY)
            + untimedProvider("vllm", "openai", "${UPSTREAM_OPENAI}", KEY) + providerLine("flavour: compatible")
            + models(
                    model("r-ant").limits(200000, 64000).supports("tools", "reasoning", "json").pricing("{input: 1, output: 2}")
                            .with("reasoning: {family: hybrid, efforts: [low, medium, high, max],"
                                    + " budget: {min: 1024, max: 64000, below_max_tokens: true}}")
                            .route("ant/up-ant"),
                    model("r-oai").limits(200000, 8192).supports("tools", "json").pricing("{input: 1, output: 2}").route("oai/up-oai"),
                    model("r-resp").limits(200000, 8192).supports("tools", "json").pricing("{input: 1, output: 2}")
                            .route("resp/up-resp"),
                    model("r-gem").limits(200000, 65536).supports("tools", "reasoning").pricing("{input: 1, output: 2}")
                            .with("reasoning: {family: hybrid, efforts: [low, medium, high, max], effort_as: budget,"
                                    + " budget: {min: 1, max: 24576}}")
                            .route("gem/up-gem"),
                    model("r-vllm").limits(200000, 8192).pricing("{input: 1, output: 2}").route("vllm/up-vllm"),
                    model("r-strict").limits(200000, 8192).supports("reasoning").pricing("{input: 1, output: 2}")
                            .with("refused_params: [temperature, top_p, logprobs]").route("oai/up-strict"),
                    model("r-gem3").limits(200000, 65536).supports("reasoning").pricing("{input: 1, output: 2}")
                            .with("reasoning: {family: always, efforts: [minimal, low, medium, high], effort_as: level}")
                            .route("gem/up-gem3")));

    private static final String CLAUDE_CODE_USER = "{\\\"device_id\\\":\\\"6f1c0e9a3b2d4c5e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e\\\","
            + "\\\"account_uuid\\\":\\\"\\\",\\\"session_id\\\":\\\"0e9d8c7b-6a5f-4e3d-2c1b-0a9f8e7d6c5b\\\"}";

    private static Map<String, String> messagesHeaders(TestGateway g) {
        return Map.of("x-api-key", g.apiKey(), "anthropic-version", "2023-06-01", "content-type", "application/json");
    }

    private static JsonNode lastSent(TestGateway g, String upstreamModel) {
        return g.upstream().received(upstreamModel).getLast().json();
    }

    private static HttpResponse<String> messages(TestGateway g, String body) {
        return ItSupport.post(g, "/v1/messages", messagesHeaders(g), body);
    }

    private static HttpResponse<String> chat(TestGateway g, String body) {
        return ItSupport.post(g, "/v1/chat/completions", ItSupport.bearer(g.apiKey()), body);
    }

    @Test
    void aBudgetReachesAnthropicWithoutAnEffortTheCallerNeverSent() {
        TestGateway g = GATEWAY.gateway();
        HttpResponse<String> budget = messages(g, """
                {"model": "r-ant", "max_tokens": 64000, "thinking": {"type": "enabled", "budget_tokens": 31999},
                 "messages": [{"role": "user", "content": "Think, then answer."}]}""");
        assertThat(budget.statusCode()).as(budget.body()).isEqualTo(200);
        JsonNode sent = lastSent(g, "up-ant");
        assertThat(sent.at("/thinking/budget_tokens").asInt()).isEqualTo(31999);
        assertThat(sent.has("output_config")).as(sent.toString()).isFalse();

        HttpResponse<String> effort = messages(g, """
                {"model": "r-ant", "max_tokens": 32000, "thinking": {"type": "adaptive"}, "output_config": {"effort": "medium"},
                 "messages": [{"role": "user", "content": "Think, then answer."}]}""");
        assertThat(effort.statusCode()).as(effort.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-ant").at("/output_config/effort").asText()).isEqualTo("medium");
    }

    @Test
    void googleStyleSchemasArriveInJsonSchemaSpellingAtAnthropicOpenAiAndResponses() {
        TestGateway g = GATEWAY.gateway();
        for (String model : new String[] {"r-ant", "r-oai", "r-resp"}) {
            HttpResponse<String> r = chat(g, """
                    {"model": "%s", "messages": [{"role": "user", "content": "What time is it?"}],
                     "tools": [{"type": "function", "function": {"name": "get_time",
                       "parameters": {"type": "OBJECT", "properties": {"zone": {"type": "STRING"}}, "required": ["zone"]}}}]}
                    """.formatted(model));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            String sent = g.upstream().received().getLast().bodyText();
            assertThat(sent).as(model).contains("\"object\"", "\"string\"").doesNotContain("\"OBJECT\"", "\"STRING\"");
        }
    }

    @Test
    void claudeCodesUserIdBlobBecomesAShortStableUserAtOpenAi() {
        TestGateway g = GATEWAY.gateway();
        String body = """
                {"model": "%s", "max_tokens": 100, "metadata": {"user_id": "%s"},
                 "messages": [{"role": "user", "content": "Hello"}]}""";
        assertThat(messages(g, body.formatted("r-oai", CLAUDE_CODE_USER)).statusCode()).isEqualTo(200);
        String first = lastSent(g, "up-oai").path("user").asText();
        assertThat(messages(g, body.formatted("r-oai", CLAUDE_CODE_USER)).statusCode()).isEqualTo(200);
        assertThat(first).matches("u-[0-9a-f]{32}").isEqualTo(lastSent(g, "up-oai").path("user").asText());
        assertThat(messages(g, body.formatted("r-resp", CLAUDE_CODE_USER)).statusCode()).isEqualTo(200);
        assertThat(lastSent(g, "up-resp").path("user").asText()).isEqualTo(first);
        assertThat(messages(g, body.formatted("r-ant", CLAUDE_CODE_USER)).statusCode()).isEqualTo(200);
        assertThat(lastSent(g, "up-ant").at("/metadata/user_id").asText()).as("Anthropic's own field, as sent").startsWith("{\"device_id\"");
    }

    @Test
    void strictIsSentOnlyForSchemasThatStrictModeAccepts() {
        TestGateway g = GATEWAY.gateway();
        String body = """
                {"model": "r-oai", "max_tokens": 100, "messages": [{"role": "user", "content": "A person, please."}],
                 "output_config": {"format": {"type": "json_schema", "schema": %s}}}""";
        String loose = "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}, \"age\": {\"type\": \"integer\"}}, \"required\": [\"name\"]}";
        String strict = "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}}, \"required\": [\"name\"], \"additionalProperties\": false}";

        assertThat(messages(g, body.formatted(loose)).statusCode()).isEqualTo(200);
        assertThat(lastSent(g, "up-oai").at("/response_format/json_schema/strict").asBoolean()).isFalse();
        assertThat(messages(g, body.formatted(strict)).statusCode()).isEqualTo(200);
        assertThat(lastSent(g, "up-oai").at("/response_format/json_schema/strict").asBoolean()).isTrue();
    }

    @Test
    void geminiGetsAnInt32SeedAndABudgetInsideTheModelsRange() {
        TestGateway g = GATEWAY.gateway();
        HttpResponse<String> seeded = chat(g, """
                {"model": "r-gem", "seed": 9007199254740993, "messages": [{"role": "user", "content": "Pick a number."}]}""");
        assertThat(seeded.statusCode()).as(seeded.body()).isEqualTo(200);
        JsonNode seed = lastSent(g, "up-gem").at("/generationConfig/seed");
        assertThat(seed.asLong()).isBetween((long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE);

        HttpResponse<String> budget = messages(g, """
                {"model": "r-gem", "max_tokens": 64000, "thinking": {"type": "enabled", "budget_tokens": 60000},
                 "messages": [{"role": "user", "content": "Think hard."}]}""");
        assertThat(budget.statusCode()).as(budget.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-gem").at("/generationConfig/thinkingConfig/thinkingBudget").asInt()).isEqualTo(24576);

        HttpResponse<String> max = chat(g, """
                {"model": "r-gem", "reasoning_effort": "max", "messages": [{"role": "user", "content": "Think hardest."}]}""");
        assertThat(max.statusCode()).as(max.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-gem").at("/generationConfig/thinkingConfig/thinkingBudget").asInt()).isEqualTo(24576);
    }

    @Test
    void anEmptyConversationIsA400AndNeverReachesGemini() {
        TestGateway g = GATEWAY.gateway();
        int before = g.upstream().received("up-gem").size();
        HttpResponse<String> r = chat(g, """
                {"model": "r-gem", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": ""}]}""");

        ErrorEnvelopeSupport.assertRefusedNaming(r, "messages");
        assertThat(g.upstream().received("up-gem")).hasSize(before);
    }

    @Test
    void thinkingOffOnAModelThatAlwaysThinksAsksForNoThoughts() {
        TestGateway g = GATEWAY.gateway();
        HttpResponse<String> r = messages(g, """
                {"model": "r-gem3", "max_tokens": 500, "thinking": {"type": "disabled"},
                 "messages": [{"role": "user", "content": "Quick answer."}]}""");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode thinking = lastSent(g, "up-gem3").at("/generationConfig/thinkingConfig");
        assertThat(thinking.path("thinkingLevel").asText()).isEqualTo("MINIMAL");
        assertThat(thinking.has("includeThoughts")).as(thinking.toString()).isFalse();
        assertThat(r.body()).doesNotContain("\"thinking\"");
    }


    private static final String DOTTED_TOOL = """
            "tools": [{"type": "function", "function": {"name": "ns.get_time", "description": "The time.",
               "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}, "required": ["zone"]}}}]""";

    @Test
    void aDottedToolNameIsRenamedForOpenAiAndComesBackAsTheClientNamedIt() {
        TestGateway g = GATEWAY.gateway();
        HttpResponse<String> plain = chat(g, "{\"model\": \"r-oai\", \"messages\": [{\"role\": \"user\", \"content\": \"Time?\"}], "
                + DOTTED_TOOL + "}");

        assertThat(plain.statusCode()).as(plain.body()).isEqualTo(200);
        JsonNode sent = lastSent(g, "up-oai");
        String upstreamName = sent.at("/tools/0/function/name").asText();
        assertThat(upstreamName).matches("[a-zA-Z0-9_-]{1,64}");
        JsonNode call = ItSupport.json(plain.body()).at("/choices/0/message/tool_calls/0");
        assertThat(call.at("/function/name").asText()).isEqualTo("ns.get_time");

        HttpResponse<String> streamed = chat(g, "{\"model\": \"r-oai\", \"stream\": true, \"messages\": [{\"role\": \"user\", "
                + "\"content\": \"Time?\"}], " + DOTTED_TOOL + "}");
        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(streamed.body()).contains("\"name\":\"ns.get_time\"").doesNotContain(upstreamName);

        String id = "toolu_01" + "B".repeat(56);
        HttpResponse<String> next = chat(g, """
                {"model": "r-oai", "messages": [{"role": "user", "content": "Time?"},
                  {"role": "assistant", "content": null, "tool_calls": [{"id": "%1$s", "type": "function",
                    "function": {"name": "ns.get_time", "arguments": "{\\"zone\\": \\"UTC\\"}"}}]},
                  {"role": "tool", "tool_call_id": "%1$s", "content": "12:00"}], %2$s}""".formatted(id, DOTTED_TOOL));
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        JsonNode history = lastSent(g, "up-oai").path("messages");
        JsonNode replayed = history.get(1).at("/tool_calls/0");
        assertThat(replayed.at("/function/name").asText()).isEqualTo(upstreamName);
        assertThat(replayed.path("id").asText()).hasSizeLessThanOrEqualTo(40).isEqualTo(history.get(2).path("tool_call_id").asText());
        assertThat(ItSupport.json(next.body()).at("/choices/0/message/content").asText()).contains("12:00");
    }

    @Test
    void aMessagesClientsLongToolIdsReachOpenAiAndResponsesShortenedAndPaired() {
        TestGateway g = GATEWAY.gateway();
        String id = "toolu_01" + "C".repeat(56);
        for (String model : new String[] {"r-oai", "r-resp"}) {
            HttpResponse<String> r = messages(g, """
                    {"model": "%s", "max_tokens": 200, "tools": [{"name": "get_time", "input_schema": {"type": "object"}}],
                     "messages": [{"role": "user", "content": "Time?"},
                       {"role": "assistant", "content": [{"type": "tool_use", "id": "%s", "name": "get_time", "input": {}}]},
                       {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "%2$s", "content": "noon"}]}]}
                    """.formatted(model, id));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            String sent = g.upstream().received().getLast().bodyText();
            assertThat(sent).as(model).doesNotContain(id);
        }
        JsonNode chat = lastSent(g, "up-oai").path("messages");
        assertThat(chat.get(1).at("/tool_calls/0/id").asText()).hasSizeLessThanOrEqualTo(40)
                .isEqualTo(chat.get(2).path("tool_call_id").asText());
        JsonNode input = lastSent(g, "up-resp").path("input");
        assertThat(input.get(1).path("call_id").asText()).hasSizeLessThanOrEqualTo(40).isEqualTo(input.get(2).path("call_id").asText());
    }

    private static final String DROPPED = "x-switchboard-dropped-fields";

    @Test
    void theClientsBetasReachAnthropicWhenAnthropicAcceptsThemAndTheOthersAreNamed() {
        TestGateway g = GATEWAY.gateway();
        java.util.Map<String, String> headers = new java.util.HashMap<>(messagesHeaders(g));
        headers.put("anthropic-beta", "context-management-2025-06-27, made-up-2099-01-01");
        HttpResponse<String> r = ItSupport.post(g, "/v1/messages", headers, """
                {"model": "r-ant", "max_tokens": 100, "context_management": {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]},
                 "messages": [{"role": "user", "content": "Hello"}]}""");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        RecordedRequest sent = g.upstream().received("up-ant").getLast();
        assertThat(sent.header("anthropic-beta").orElse("")).contains("context-management-2025-06-27").doesNotContain("made-up");
        assertThat(sent.json().has("context_management")).isTrue();
        assertThat(r.headers().firstValue(DROPPED)).contains("anthropic-beta: made-up-2099-01-01");
    }

    @Test
    void deferLoadingAndACacheMarkerOnToolUseReachAnthropicAndAreNamedWhereTheyCannotGo() {
        TestGateway g = GATEWAY.gateway();
        String body = """
                {"model": "%s", "max_tokens": 100,
                 "tools": [{"name": "get_time", "input_schema": {"type": "object"}, "defer_loading": true}],
                 "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
                 "messages": [{"role": "user", "content": "Time?"},
                   {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {},
                                                      "cache_control": {"type": "ephemeral"}}]},
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "noon",
                                                 "cache_control": {"type": "ephemeral"}}]}]}""";
        HttpResponse<String> ant = messages(g, body.formatted("r-ant"));

        assertThat(ant.statusCode()).as(ant.body()).isEqualTo(200);
        JsonNode sent = lastSent(g, "up-ant");
        assertThat(sent.at("/tools/0/defer_loading").asBoolean()).isTrue();
        assertThat(sent.at("/messages/1/content/0/type").asText()).isEqualTo("tool_use");
        assertThat(sent.at("/messages/1/content/0/cache_control/type").asText()).isEqualTo("ephemeral");
        assertThat(sent.toString().split("\"cache_control\"", -1)).as("3 markers sent, 3 arrived").hasSize(4);
        assertThat(ant.headers().firstValue(DROPPED)).isEmpty();

        HttpResponse<String> oai = messages(g, body.formatted("r-oai"));
        assertThat(oai.statusCode()).as(oai.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-oai").toString()).doesNotContain("defer_loading");
        assertThat(oai.headers().firstValue(DROPPED)).hasValueSatisfying(v -> assertThat(v).contains("tools[].defer_loading"));
    }

    @Test
    void unknownClientFieldsGoOnlyToServersThatTakeExtrasAndAreNamedOtherwise() {
        TestGateway g = GATEWAY.gateway();
        String body = """
                {"model": "%s", "max_tokens": 50, "repetition_penalty": 1.1, "min_p": 0.05, "service_tier": "auto",
                 "messages": [{"role": "user", "content": "Hello"}]}""";
        HttpResponse<String> openai = chat(g, body.formatted("r-oai"));

        assertThat(openai.statusCode()).as(openai.body()).isEqualTo(200);
        JsonNode sent = lastSent(g, "up-oai");
        assertThat(sent.has("repetition_penalty") || sent.has("min_p")).as(sent.toString()).isFalse();
        assertThat(sent.path("service_tier").asText()).as("a field OpenAI defines still goes").isEqualTo("auto");
        assertThat(openai.headers().firstValue(DROPPED)).contains("repetition_penalty, min_p");

        HttpResponse<String> vllm = chat(g, body.formatted("r-vllm"));
        assertThat(vllm.statusCode()).as(vllm.body()).isEqualTo(200);
        JsonNode extras = lastSent(g, "up-vllm");
        assertThat(extras.path("repetition_penalty").asDouble()).isEqualTo(1.1);
        assertThat(extras.path("min_p").asDouble()).isEqualTo(0.05);
        assertThat(vllm.headers().firstValue(DROPPED)).isEmpty();
    }

    @Test
    void openAisRulesComeFromTheFlavourAtAnyBaseUrl() {
        TestGateway g = GATEWAY.gateway();
        String body = """
                {"model": "%s", "max_tokens": 50, "messages": [{"role": "user", "content": "Hello"},
                  {"role": "assistant", "content": "Hi.", "reasoning_content": "They greeted me."},
                  {"role": "user", "content": "Again"}]}""";
        assertThat(chat(g, body.formatted("r-oai")).statusCode()).isEqualTo(200);
        JsonNode openai = lastSent(g, "up-oai");
        assertThat(openai.path("max_completion_tokens").asInt()).as("loopback base URL, flavour openai by default").isEqualTo(50);
        assertThat(openai.has("max_tokens")).isFalse();
        assertThat(openai.toString()).doesNotContain("reasoning_content");

        assertThat(chat(g, body.formatted("r-vllm")).statusCode()).isEqualTo(200);
        JsonNode compatible = lastSent(g, "up-vllm");
        assertThat(compatible.path("max_tokens").asInt()).isEqualTo(50);
        assertThat(compatible.at("/messages/1/reasoning_content").asText()).isEqualTo("They greeted me.");
    }

    @Test
    void aResponsesClientsPromptCacheKeyReachesAChatCompletionsUpstream() {
        TestGateway g = GATEWAY.gateway();
        HttpResponse<String> r = ItSupport.post(g, "/v1/responses", ItSupport.bearer(g.apiKey()), """
                {"model": "r-oai", "store": false, "input": "Hello", "prompt_cache_key": "session-42",
                 "client_metadata": {"session_id": "s1"}}""");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode sent = lastSent(g, "up-oai");
        assertThat(sent.path("prompt_cache_key").asText()).isEqualTo("session-42");
        assertThat(sent.has("client_metadata")).isFalse();
        assertThat(r.headers().firstValue(DROPPED)).contains("client_metadata");
    }

    @Test
    void parametersTheModelRefusesAreDroppedNamedAndNotListedAsAllowed() {
        TestGateway g = GATEWAY.gateway();
        HttpResponse<String> r = chat(g, """
                {"model": "r-strict", "temperature": 0.3, "top_p": 0.5, "logprobs": true, "max_tokens": 50,
                 "messages": [{"role": "user", "content": "Hello"}]}""");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode sent = lastSent(g, "up-strict");
        assertThat(sent.has("temperature") || sent.has("top_p") || sent.has("logprobs")).as(sent.toString()).isFalse();
        assertThat(r.headers().firstValue(DROPPED)).contains("logprobs, temperature, top_p");

        HttpResponse<String> allowed = ItSupport.get(g, "/api/models/r-strict/allowed-params", Map.of());
        assertThat(allowed.statusCode()).isEqualTo(200);
        JsonNode params = ItSupport.json(allowed.body());
        assertThat(params.path("allowed_params").toString()).doesNotContain("\"temperature\"", "\"top_p\"", "\"logprobs\"");
        assertThat(params.path("refused_params").toString()).contains("temperature", "top_p", "logprobs");
    }

    @Test
    void logprobsReachEveryUpstreamThatHasThemAndAreNamedAtAnthropic() {
        TestGateway g = GATEWAY.gateway();
        String body = """
                {"model": "%s", "max_tokens": 50, "logprobs": true, "top_logprobs": 2,
                 "messages": [{"role": "user", "content": "Hello"}]}""";

        HttpResponse<String> oai = chat(g, body.formatted("r-oai"));
        assertThat(oai.statusCode()).as(oai.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-oai").path("logprobs").asBoolean()).isTrue();
        assertThat(lastSent(g, "up-oai").path("top_logprobs").asInt()).isEqualTo(2);
        assertThat(oai.headers().firstValue(DROPPED)).isEmpty();

        HttpResponse<String> resp = chat(g, body.formatted("r-resp"));
        assertThat(resp.statusCode()).as(resp.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-resp").path("include").toString()).contains("message.output_text.logprobs");
        assertThat(lastSent(g, "up-resp").path("top_logprobs").asInt()).isEqualTo(2);

        HttpResponse<String> gem = chat(g, body.formatted("r-gem"));
        assertThat(gem.statusCode()).as(gem.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-gem").at("/generationConfig/responseLogprobs").asBoolean()).isTrue();
        assertThat(lastSent(g, "up-gem").at("/generationConfig/logprobs").asInt()).isEqualTo(2);

        HttpResponse<String> ant = chat(g, body.formatted("r-ant"));
        assertThat(ant.statusCode()).as(ant.body()).isEqualTo(200);
        assertThat(g.upstream().received("up-ant").getLast().bodyText()).doesNotContain("logprob");
        assertThat(ant.headers().firstValue(DROPPED)).contains("logprobs");
    }

    @Test
    void aReplayedRefusalGoesUpstreamAsARefusalWhereTheFormatHasOne() {
        TestGateway g = GATEWAY.gateway();
        String body = """
                {"model": "%s", "max_tokens": 50, "messages": [{"role": "user", "content": "Pick a lock"},
                  {"role": "assistant", "content": null, "refusal": "I can't help with that."},
                  {"role": "user", "content": "How do locks work?"}]}""";

        assertThat(chat(g, body.formatted("r-oai")).statusCode()).isEqualTo(200);
        JsonNode oai = lastSent(g, "up-oai").path("messages").get(1);
        assertThat(oai.path("refusal").asText()).isEqualTo("I can't help with that.");
        assertThat(oai.path("content").asText()).isEmpty();

        assertThat(chat(g, body.formatted("r-resp")).statusCode()).isEqualTo(200);
        JsonNode resp = lastSent(g, "up-resp").path("input").get(1);
        assertThat(resp.at("/content/0/type").asText()).isEqualTo("refusal");
        assertThat(resp.at("/content/0/refusal").asText()).isEqualTo("I can't help with that.");

        assertThat(chat(g, body.formatted("r-ant")).statusCode()).isEqualTo(200);
        assertThat(lastSent(g, "up-ant").at("/messages/1/content").toString()).contains("I can't help with that.");
    }

    @Test
    void theMessagesBetaSpellingOutputFormatReachesOpenAiAndGeminiAsTheirSchemaFields() {
        TestGateway g = GATEWAY.gateway();
        String body = """
                {"model": "%s", "max_tokens": 100, "messages": [{"role": "user", "content": "A person, please."}],
                 "output_format": {"type": "json_schema", "schema": {"type": "object", "properties": {"name": {"type": "string"}},
                   "required": ["name"], "additionalProperties": false}}}""";

        HttpResponse<String> oai = messages(g, body.formatted("r-oai"));
        assertThat(oai.statusCode()).as(oai.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-oai").at("/response_format/type").asText()).isEqualTo("json_schema");
        assertThat(lastSent(g, "up-oai").at("/response_format/json_schema/schema/required/0").asText()).isEqualTo("name");
        assertThat(oai.headers().firstValue(DROPPED)).isEmpty();

        HttpResponse<String> gem = messages(g, body.formatted("r-gem"));
        assertThat(gem.statusCode()).as(gem.body()).isEqualTo(200);
        assertThat(lastSent(g, "up-gem").at("/generationConfig/responseMimeType").asText()).isEqualTo("application/json");
        assertThat(lastSent(g, "up-gem").at("/generationConfig/responseJsonSchema/properties/name/type").asText())
                .isEqualTo("string");
    }
}
