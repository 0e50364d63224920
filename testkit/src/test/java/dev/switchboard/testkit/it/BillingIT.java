package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.anthropicProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.AnthropicClient;
import com.anthropic.models.messages.CacheControlEphemeral;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.TextBlockParam;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.Client;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.completions.CompletionUsage;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.billing.UsageQuery;
import dev.switchboard.engine.billing.UsageRecord;
import dev.switchboard.model.Usage;
import dev.switchboard.testkit.GatewayConfigSupport.Model;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Billing judged from the client's side, with the vendors' official SDKs against fake upstreams, in every
 * client format: the balance ({@code GET /v1/credits}) falls by exactly the cost computed here, independently
 * of the gateway's code, from the configured prices and the usage the client saw; a fallback's answer is billed
 * at the fallback's prices; {@code count_tokens} costs nothing; a cut stream is billed once, marked estimated,
 * for more than nothing and less than the full answer. Each billed request leaves one usage record and one
 * ledger charge, and {@code GET /v1/generation} shows it to its owner only.
 */
class BillingIT {
    // Prices with fractions of a nano-dollar per token, so only exact arithmetic gets every figure right.
    private static final String IN = "3.0000125";
    private static final String OUT = "15.0000375";
    private static final String CACHE_READ = "0.3000011";
    private static final String CACHE_WRITE = "3.75000017";
    private static final String FALLBACK_IN = "0.15";
    private static final String FALLBACK_OUT = "0.6";

    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(
                    anthropicProvider("claude", ItSupport.UPSTREAM_KEY),
                    openAiProvider("gpt", ItSupport.UPSTREAM_KEY))
            + models(
                    paid("paid").route("gpt/up-paid"),
                    paid("paid-claude").supports("caching")
                            .pricing("{input: %s, output: %s, cache_read: %s, cache_write_5m: %s, cache_write_1h: %s}"
                                    .formatted(IN, OUT, CACHE_READ, CACHE_WRITE, CACHE_WRITE))
                            .route("claude/up-claude"),
                    paid("paid-down").route("gpt/up-down-fail503"),
                    paid("cheap").pricing("{input: %s, output: %s}".formatted(FALLBACK_IN, FALLBACK_OUT)).route("gpt/up-cheap"),
                    paid("paid-think").supports("reasoning").route("gpt/up-think-reasoning"),
                    paid("paid-trickle").route("gpt/up-trickle"),
                    paid("paid-cut").route("gpt/up-cut-midfail"));

    /** A model priced {@link #IN} and {@link #OUT}, with room for the long prompts of the caching tests. */
    private static Model paid(String name) {
        return model(name).limits(200000, 4096).pricing("{input: %s, output: %s}".formatted(IN, OUT));
    }

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(CONFIG);

    private static TestGateway gateway;
    private static OpenAIClient openai;
    private static AnthropicClient anthropic;
    private static Client google;

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
        gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY);
        openai = ItSupport.client(gateway);
        anthropic = MessagesItSupport.client(gateway);
        google = GeminiItSupport.client(gateway);
        // 40 words, one every 100 ms, unless the gateway hangs up first
        gateway.upstream().script("up-trickle", (request, exchange) -> {
            dev.switchboard.testkit.SseStream sse = exchange.openSse(200);
            try {
                sse.data(trickleChunk("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
                for (int i = 0; i < 40; i++) {
                    sse.data(trickleChunk("{\"content\":\"word" + i + " \"}", "null"));
                    Thread.sleep(100);
                }
                sse.data(trickleChunk("{}", "\"stop\""));
                sse.data("[DONE]");
                sse.end();
            } catch (java.io.IOException e) {
                trickleCancelled.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static final java.util.concurrent.CountDownLatch trickleCancelled = new java.util.concurrent.CountDownLatch(1);

    private static String trickleChunk(String delta, String finishReason) {
        return "{\"id\":\"chatcmpl-trickle\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"up-trickle\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + finishReason + "}]}";
    }

    /** USD per million tokens times tokens, in nano-dollars, summed exactly and rounded once, half up. */
    private static long expectedNanos(long uncachedInput, String in, long output, String out, long cacheRead, String read,
                                      long cacheWrite, String write) {
        BigDecimal usd = new BigDecimal(in).multiply(BigDecimal.valueOf(uncachedInput))
                .add(new BigDecimal(out).multiply(BigDecimal.valueOf(output)))
                .add(new BigDecimal(read).multiply(BigDecimal.valueOf(cacheRead)))
                .add(new BigDecimal(write).multiply(BigDecimal.valueOf(cacheWrite)))
                .divide(BigDecimal.valueOf(1_000_000));
        return usd.movePointRight(9).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    private static long expectedNanos(long input, long output) {
        return expectedNanos(input, IN, output, OUT, 0, "0", 0, "0");
    }

    /**
     * The caller's balance as {@code GET /v1/credits} shows it, in nano-dollars, once nothing is held: a streamed
     * answer's last event can reach the client just before its settlement commits.
     */
    private static long balance() {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            HttpResponse<String> r = ItSupport.get(gateway, "/v1/credits", ItSupport.bearer(gateway.apiKey()));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode data = ItSupport.json(r.body()).path("data");
            if (data.path("held_usd").asText().equals("0") || System.nanoTime() > deadline) {
                assertThat(data.path("held_usd").asText()).as("nothing held between requests").isEqualTo("0");
                return new BigDecimal(data.path("balance_usd").asText()).movePointRight(9).longValueExact();
            }
            Thread.onSpinWait();
        }
    }

    private static UsageRecord lastRecord() {
        return gateway.app().balances().usage(new UsageQuery(Optional.of(gateway.userId()), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), 0, 1)).getFirst();
    }

    private static long charges(String requestId) {
        return gateway.app().accounts().admin().ledger(gateway.userId(), 1000).stream()
                .filter(e -> e.kind() == LedgerEntry.Kind.CHARGE && e.requestId().equals(Optional.of(requestId))).count();
    }

    /** The last request's record: one ledger charge, of exactly its cost, and its id is the one the caller got. */
    private static UsageRecord billedOnce(long expected) {
        UsageRecord r = lastRecord();
        assertThat(r.costNanos()).isEqualTo(expected);
        assertThat(r.chargedNanos()).isEqualTo(expected);
        assertThat(charges(r.requestId())).isEqualTo(1);
        return r;
    }

    @Test
    void chatCompletionsIsBilledExactlyTheUsageTheClientSaw() {
        long before = balance();

        ChatCompletion c = openai.chat().completions().create(ItSupport.ask("paid", "What does a ledger hold?"));

        CompletionUsage u = c.usage().orElseThrow();
        long expected = expectedNanos(u.promptTokens(), u.completionTokens());
        assertThat(expected).isPositive();
        assertThat(before - balance()).isEqualTo(expected);
        UsageRecord r = billedOnce(expected);
        assertThat(r.model()).isEqualTo("paid");
        assertThat(r.usage().provenance()).isEqualTo(Usage.Provenance.REPORTED);
    }

    @Test
    void aStreamedChatIsBilledTheUsageOfItsFinalChunk() {
        long before = balance();
        List<ChatCompletionChunk> chunks = new ArrayList<>();

        try (StreamResponse<ChatCompletionChunk> s = openai.chat().completions().createStreaming(
                ItSupport.ask("paid", "Stream me the balance sheet"))) {
            s.stream().forEach(chunks::add);
        }

        CompletionUsage u = chunks.getLast().usage().orElseThrow();
        long expected = expectedNanos(u.promptTokens(), u.completionTokens());
        assertThat(before - balance()).isEqualTo(expected);
        assertThat(billedOnce(expected).streamed()).isTrue();
    }

    @Test
    void messagesAreBilledForCacheReadsAndWritesEachOnceAtTheirOwnPrices() {
        String system = "You are the archivist of the nano-dollar ledger. ".repeat(20);
        MessageCreateParams.Builder ask = MessageCreateParams.builder().model("paid-claude").maxTokens(200)
                .systemOfTextBlockParams(List.of(TextBlockParam.builder().text(system)
                        .cacheControl(CacheControlEphemeral.builder().build()).build()));
        long before = balance();

        Message written = anthropic.messages().create(ask.addUserMessage("First question?").build());
        long afterWrite = balance();
        Message read = anthropic.messages().create(ask.addUserMessage("Second question?").build());
        long afterRead = balance();

        com.anthropic.models.messages.Usage w = written.usage();
        long writeCost = expectedNanos(w.inputTokens(), IN, w.outputTokens(), OUT, w.cacheReadInputTokens().orElse(0L),
                CACHE_READ, w.cacheCreationInputTokens().orElse(0L), CACHE_WRITE);
        com.anthropic.models.messages.Usage r = read.usage();
        long readCost = expectedNanos(r.inputTokens(), IN, r.outputTokens(), OUT, r.cacheReadInputTokens().orElse(0L),
                CACHE_READ, r.cacheCreationInputTokens().orElse(0L), CACHE_WRITE);
        assertThat(w.cacheCreationInputTokens()).hasValueSatisfying(n -> assertThat(n).isPositive());
        assertThat(r.cacheReadInputTokens()).hasValueSatisfying(n -> assertThat(n).isPositive());
        assertThat(before - afterWrite).isEqualTo(writeCost);
        assertThat(afterWrite - afterRead).isEqualTo(readCost);
        billedOnce(readCost);
    }

    @Test
    void contentPartsAreBilledExactlyTheUsageMetadataTheClientSaw() {
        long before = balance();

        GenerateContentResponse g = google.models.generateContent("paid", "What is a nano-dollar?", null);

        GenerateContentResponseUsageMetadata u = g.usageMetadata().orElseThrow();
        long output = u.candidatesTokenCount().orElse(0) + u.thoughtsTokenCount().orElse(0);
        long expected = expectedNanos(u.promptTokenCount().orElseThrow(), output);
        assertThat(before - balance()).isEqualTo(expected);
        assertThat(billedOnce(expected).endpoint()).isEqualTo("generate_content");
    }

    @Test
    void responsesAreBilledExactlyTheUsageTheClientSaw() {
        long before = balance();

        Response resp = openai.responses().create(ResponseCreateParams.builder().model("paid").input("Summarise the ledger").build());

        var u = resp.usage().orElseThrow();
        long expected = expectedNanos(u.inputTokens(), u.outputTokens());
        assertThat(before - balance()).isEqualTo(expected);
        billedOnce(expected);
    }

    @Test
    void aFallbackAnswerIsBilledAtTheFallbacksPricesAndGenerationSaysWhoAnswered() {
        long before = balance();

        var raw = openai.chat().completions().withRawResponse().create(ChatCompletionCreateParams.builder().model("paid-down")
                .addUserMessage("Who answers?").putAdditionalBodyProperty("models",
                        com.openai.core.JsonValue.from(List.of("cheap"))).build());
        ChatCompletion c = raw.parse();
        String requestId = raw.headers().values("x-request-id").getFirst();

        CompletionUsage u = c.usage().orElseThrow();
        long expected = expectedNanos(u.promptTokens(), FALLBACK_IN, u.completionTokens(), FALLBACK_OUT, 0, "0", 0, "0");
        assertThat(c.model()).isEqualTo("cheap");
        assertThat(before - balance()).isEqualTo(expected);
        assertThat(expected).as("not the requested model's price").isLessThan(expectedNanos(u.promptTokens(), u.completionTokens()));

        HttpResponse<String> generation = ItSupport.get(gateway, "/v1/generation?id=" + requestId, ItSupport.bearer(gateway.apiKey()));
        assertThat(generation.statusCode()).as(generation.body()).isEqualTo(200);
        JsonNode g = ItSupport.json(generation.body()).path("data");
        assertThat(g.path("model").asText()).isEqualTo("cheap");
        assertThat(g.path("requested_model").asText()).isEqualTo("paid-down");
        assertThat(g.path("provider").asText()).isEqualTo("gpt");
        assertThat(g.path("input_tokens").asLong()).isEqualTo(u.promptTokens());
        assertThat(g.path("output_tokens").asLong()).isEqualTo(u.completionTokens());
        assertThat(new BigDecimal(g.path("cost_usd").asText()).movePointRight(9).longValueExact()).isEqualTo(expected);
        assertThat(g.path("provenance").asText()).isEqualTo("reported");
        assertThat(charges(requestId)).isEqualTo(1);
    }

    @Test
    void countTokensLeavesTheBalanceUnchanged() {
        long before = balance();

        long tokens = anthropic.messages().countTokens(MessageCountTokensParams.builder().model("paid-claude")
                .addUserMessage("How much would this cost?").build()).inputTokens();

        assertThat(tokens).isPositive();
        assertThat(balance()).isEqualTo(before);
        assertThat(gateway.app().balances().openHolds()).isZero();
    }

    @Test
    void aCutStreamIsBilledOnceEstimatedForMoreThanNothingAndLessThanAFullAnswer() {
        String prompt = "Tell me the whole story of double-entry bookkeeping";
        long beforeFull = balance();
        openai.chat().completions().create(ItSupport.ask("paid", prompt));
        long full = beforeFull - balance();
        long before = balance();

        HttpResponse<String> cut = ItSupport.post(gateway, "/v1/chat/completions", ItSupport.bearer(gateway.apiKey()),
                "{\"model\": \"paid-cut\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"" + prompt + "\"}]}");

        assertThat(cut.statusCode()).isEqualTo(200);
        assertThat(cut.body()).contains("\"error\"");
        long charged = before - balance();
        assertThat(charged).isPositive().isLessThan(full);
        UsageRecord r = lastRecord();
        assertThat(r.requestId()).isEqualTo(cut.headers().firstValue("x-request-id").orElseThrow());
        assertThat(r.usage().provenance()).isEqualTo(Usage.Provenance.ESTIMATED);
        assertThat(r.status()).isEqualTo("CUT");
        assertThat(r.chargedNanos()).isEqualTo(charged);
        assertThat(charges(r.requestId())).isEqualTo(1);
    }

    @Test
    void reasoningHiddenFromTheCallerIsStillBilledAsOutput() {
        long before = balance();

        ChatCompletion c = openai.chat().completions().create(ItSupport.ask("paid-think", "Think, but keep it to yourself")
                .toBuilder().putAdditionalBodyProperty("reasoning", com.openai.core.JsonValue.from(
                        java.util.Map.of("effort", "high", "exclude", true))).build());

        CompletionUsage u = c.usage().orElseThrow();
        var message = c.choices().getFirst().message();
        assertThat(message._additionalProperties()).doesNotContainKeys("reasoning", "reasoning_content", "reasoning_details");
        assertThat(message.content().orElse("")).doesNotContain("step by step");
        long reasoning = u.completionTokensDetails().flatMap(d -> d.reasoningTokens()).orElse(0L);
        assertThat(reasoning).as("the upstream reasoned").isPositive();
        long expected = expectedNanos(u.promptTokens(), u.completionTokens());
        assertThat(before - balance()).isEqualTo(expected);
        assertThat(billedOnce(expected).usage().reasoningTokens()).isEqualTo(reasoning);
    }

    @Test
    void aClientThatLeavesMidStreamIsBilledOnceEstimatedForWhatWasDelivered() throws Exception {
        long before = balance();
        List<ChatCompletionChunk> seen = new ArrayList<>();

        try (StreamResponse<ChatCompletionChunk> s = openai.chat().completions().createStreaming(
                ItSupport.ask("paid-trickle", "Trickle me"))) {
            var it = s.stream().iterator();
            while (it.hasNext() && seen.size() < 4) {
                seen.add(it.next());
            }
        }

        assertThat(trickleCancelled.await(10, java.util.concurrent.TimeUnit.SECONDS)).as("the upstream was cancelled").isTrue();
        long charged = before - balance();
        UsageRecord r = lastRecord();
        assertThat(r.model()).isEqualTo("paid-trickle");
        assertThat(r.status()).isEqualTo("CLIENT_GONE");
        assertThat(r.usage().provenance()).isEqualTo(Usage.Provenance.ESTIMATED);
        // More than the prompt alone, far less than 40 words.
        assertThat(r.usage().outputTokens()).isPositive().isLessThan(40);
        assertThat(charged).isPositive().isEqualTo(r.chargedNanos());
        assertThat(charges(r.requestId())).isEqualTo(1);
    }

    @Test
    void theLogLineCarriesCostAndUserIdNeverAKeyAndMetricsCountCostByModelWithoutUsers() {
        try (dev.switchboard.testkit.AccessLogCapture log = dev.switchboard.testkit.AccessLogCapture.open()) {
            var raw = openai.chat().completions().withRawResponse().create(ItSupport.ask("paid", "log me"));
            String requestId = raw.headers().values("x-request-id").getFirst();
            CompletionUsage u = raw.parse().usage().orElseThrow();

            var line = log.await(l -> l.field("request_id").equals(Optional.of(requestId)));
            assertThat(line.field("user_id")).contains(gateway.userId());
            assertThat(new BigDecimal(line.field("cost_usd").orElseThrow()).movePointRight(9).longValueExact())
                    .isEqualTo(expectedNanos(u.promptTokens(), u.completionTokens()));
            assertThat(line.fields().values()).noneSatisfy(v -> assertThat(v).contains(gateway.apiKey()));
        }
        String metrics = ItSupport.get(gateway, "/metrics", java.util.Map.of()).body();
        assertThat(metrics).containsPattern("switchboard_cost_usd_total\\{model=\"paid\"} [0-9.Ee-]+")
                .containsPattern("switchboard_tokens_total\\{kind=\"output\",model=\"paid\"}")
                .doesNotContain(gateway.userId());
    }

    /** A streamed request in each client format for {@code model}: path and body. */
    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> streamedInEveryFormat() {
        String prompt = "Tell me the whole story of double-entry bookkeeping";
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("chat_completions", "/v1/chat/completions",
                        "{\"model\": \"%s\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"" + prompt + "\"}]}"),
                org.junit.jupiter.params.provider.Arguments.of("messages", "/v1/messages",
                        "{\"model\": \"%s\", \"max_tokens\": 500, \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \""
                                + prompt + "\"}]}"),
                org.junit.jupiter.params.provider.Arguments.of("generate_content", "/v1beta/models/%s:streamGenerateContent?alt=sse",
                        "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"" + prompt + "\"}]}]}"),
                org.junit.jupiter.params.provider.Arguments.of("responses", "/v1/responses",
                        "{\"model\": \"%s\", \"stream\": true, \"input\": \"" + prompt + "\"}"));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("streamedInEveryFormat")
    void aCutStreamIsBilledOnceEstimatedInEveryFormat(String format, String path, String body) {
        java.util.Map<String, String> headers = new java.util.HashMap<>(ItSupport.bearer(gateway.apiKey()));
        headers.put("anthropic-version", "2023-06-01");
        long beforeFull = balance();
        HttpResponse<String> whole = ItSupport.post(gateway, path.formatted("paid"), headers, body.formatted("paid"));
        assertThat(whole.statusCode()).as(whole.body()).isEqualTo(200);
        long full = beforeFull - balance();
        assertThat(lastRecord().usage().provenance()).isEqualTo(Usage.Provenance.REPORTED);
        long before = balance();

        HttpResponse<String> cut = ItSupport.post(gateway, path.formatted("paid-cut"), headers, body.formatted("paid-cut"));

        assertThat(cut.statusCode()).isEqualTo(200);
        assertThat(cut.body()).contains("error");
        long charged = before - balance();
        UsageRecord r = lastRecord();
        assertThat(r.requestId()).isEqualTo(cut.headers().firstValue("x-request-id").orElseThrow());
        assertThat(r.endpoint()).isEqualTo(format);
        assertThat(r.usage().provenance()).isEqualTo(Usage.Provenance.ESTIMATED);
        assertThat(charged).isPositive().isLessThan(full).isEqualTo(r.chargedNanos());
        assertThat(charges(r.requestId())).isEqualTo(1);
    }

    @Test
    void contentPartsCountTokensLeavesTheBalanceUnchanged() {
        long before = balance();

        var counted = google.models.countTokens("paid", "How much would this cost?", null);

        assertThat(counted.totalTokens().orElseThrow()).isPositive();
        assertThat(balance()).isEqualTo(before);
    }

    @Test
    void anotherUsersRequestIsNotFoundAndTheUsageViewsAddUp() {
        openai.chat().completions().create(ItSupport.ask("paid", "mine"));
        String mine = lastRecord().requestId();
        var other = gateway.app().accounts().admin().createUser(new dev.switchboard.engine.account.AdminService.CreateUser(
                Optional.of("billing-other"), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("1")));
        String otherKey = gateway.app().accounts().admin().createKey(other.id(),
                dev.switchboard.engine.account.AdminService.CreateKey.defaults()).secret();

        assertThat(ItSupport.get(gateway, "/v1/generation?id=" + mine, ItSupport.bearer(otherKey)).statusCode()).isEqualTo(404);
        assertThat(ItSupport.get(gateway, "/v1/generation?id=" + mine, ItSupport.bearer(gateway.apiKey())).statusCode())
                .isEqualTo(200);
        assertThat(ItSupport.get(gateway, "/v1/generation", ItSupport.bearer(gateway.apiKey())).statusCode()).isEqualTo(400);

        JsonNode own = ItSupport.json(ItSupport.get(gateway, "/v1/usage?limit=1000", ItSupport.bearer(gateway.apiKey())).body());
        JsonNode admin = ItSupport.json(ItSupport.get(gateway, "/admin/v1/usage?group_by=model&limit=1000&user=" + gateway.userId(),
                ItSupport.bearer(gateway.adminKey())).body());
        assertThat(own.path("data").size()).isEqualTo(own.path("total").path("requests").asInt()).isPositive();
        assertThat(admin.path("total")).isEqualTo(own.path("total"));
        BigDecimal byModel = BigDecimal.ZERO;
        for (JsonNode g : admin.path("groups")) {
            byModel = byModel.add(new BigDecimal(g.path("charged_usd").asText()));
        }
        assertThat(byModel).isEqualByComparingTo(new BigDecimal(own.path("total").path("charged_usd").asText()));
        BigDecimal daily = BigDecimal.ZERO;
        for (JsonNode d : own.path("daily")) {
            daily = daily.add(new BigDecimal(d.path("charged_usd").asText()));
        }
        assertThat(daily).isEqualByComparingTo(new BigDecimal(own.path("total").path("charged_usd").asText()));
        JsonNode credits = ItSupport.json(ItSupport.get(gateway, "/v1/credits", ItSupport.bearer(gateway.apiKey())).body()).path("data");
        assertThat(new BigDecimal(credits.path("spend_today_usd").asText()))
                .isEqualByComparingTo(new BigDecimal(own.path("total").path("charged_usd").asText()));
        assertThat(credits.path("plan").asText()).isEqualTo("payg");
    }
}
