package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.models.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.Client;
import com.google.genai.errors.ClientException;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.HttpOptions;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.ResponseCreateParams;
import dev.switchboard.engine.account.BudgetPeriod;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A key's spend budget as the official SDKs meet it, in each client format: a key with {@code budget_usd 0.1} per
 * {@code daily} period is served until what it has spent plus what the next request may cost exceeds the budget;
 * that request is a 402 {@code insufficient_quota} naming the key's budget and when it starts again (the next UTC
 * midnight), and what the key was charged stays within the budget. The user's balance (100 USD) is far from empty,
 * so the budget alone refuses.
 */
class KeyBudgetSdkIT {
    static final String CONFIG = ItSupport.oneModelConfig("budget-chat", "{input: 1000, output: 1000}", "");
    private static final long BUDGET_NANOS = 100_000_000L;

    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = ItSupport.openAiGateway(CONFIG);

    private static TestGateway gateway() {
        return GATEWAY.gateway();
    }

    private record Key(String id, String secret) {
    }

    private static Key budgetedKey() {
        HttpResponse<String> r = ItSupport.post(gateway(), "/admin/v1/users/" + gateway().userId() + "/keys",
                ItSupport.bearer(gateway().adminKey()), "{\"budget_usd\": \"0.1\", \"budget_period\": \"daily\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode k = ItSupport.json(r.body());
        assertThat(k.path("budget_usd").asText()).isEqualTo("0.1");
        assertThat(k.path("budget_period").asText()).isEqualTo("daily");
        return new Key(k.path("id").asText(), k.path("key").asText());
    }

    /**
     * Sends requests until one is refused; returns the refusal's status and message, after checking that some were
     * served first and that the key's charges stay within its budget.
     */
    private static Refusal spendUntilRefused(Key key, Callable<Object> request, java.util.function.Function<Exception, Refusal> refusal)
            throws Exception {
        int served = 0;
        while (served < 50) {
            try {
                request.call();
                served++;
            } catch (Exception e) {
                Refusal r = refusal.apply(e);
                assertThat(served).as("requests served before the budget refused").isGreaterThanOrEqualTo(2);
                long spent = gateway().app().balances().keySpend(key.id(), BudgetPeriod.DAILY.start(Instant.now()));
                assertThat(spent).as("what the key spent").isPositive().isLessThanOrEqualTo(BUDGET_NANOS);
                return r;
            }
        }
        throw new AssertionError("50 requests were served on a budget of 0.1 USD");
    }

    private record Refusal(int status, String message) {
    }

    /** A 402 with the format's word for it ({@code insufficient_quota}; Gemini's status {@code FAILED_PRECONDITION}). */
    private static void namesTheKeyBudget(Refusal r, String code) {
        assertThat(r.status()).isEqualTo(402);
        String tomorrow = BudgetPeriod.DAILY.end(Instant.now()).orElseThrow().toString();
        assertThat(r.message()).contains(code, "Key budget reached: the key's budget of 0.1 USD per UTC day",
                "it starts again at " + tomorrow);
    }

    private static OpenAIClient openAi(String key) {
        return OpenAIOkHttpClient.builder().baseUrl(gateway().openAiBaseUrl()).apiKey(key).maxRetries(0)
                .timeout(Duration.ofSeconds(15)).build();
    }

    private static Refusal fromOpenAi(Exception e) {
        OpenAIServiceException s = (OpenAIServiceException) e;
        return new Refusal(s.statusCode(), s.getMessage() + " " + ItSupport.body(s));
    }

    @Test
    void chatCompletionsThroughTheOpenAiSdkIs402OnceTheKeyBudgetIsReached() throws Exception {
        Key key = budgetedKey();
        OpenAIClient client = openAi(key.secret());
        ChatCompletionCreateParams ask = ChatCompletionCreateParams.builder().model("budget-chat")
                .addUserMessage("Say hi.").maxCompletionTokens(50).build();
        namesTheKeyBudget(spendUntilRefused(key, () -> client.chat().completions().create(ask), KeyBudgetSdkIT::fromOpenAi),
                "insufficient_quota");
    }

    @Test
    void responsesThroughTheOpenAiSdkIs402OnceTheKeyBudgetIsReached() throws Exception {
        Key key = budgetedKey();
        OpenAIClient client = openAi(key.secret());
        ResponseCreateParams ask = ResponseCreateParams.builder().model("budget-chat").input("Say hi.")
                .maxOutputTokens(50L).store(false).build();
        namesTheKeyBudget(spendUntilRefused(key, () -> client.responses().create(ask), KeyBudgetSdkIT::fromOpenAi),
                "insufficient_quota");
    }

    @Test
    void messagesThroughTheAnthropicSdkIs402OnceTheKeyBudgetIsReached() throws Exception {
        Key key = budgetedKey();
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(gateway().baseUrl()).apiKey(key.secret())
                .maxRetries(0).timeout(Duration.ofSeconds(15)).build();
        MessageCreateParams ask = MessageCreateParams.builder().model("budget-chat").maxTokens(50)
                .addUserMessage("Say hi.").build();
        namesTheKeyBudget(spendUntilRefused(key, () -> client.messages().create(ask), e -> {
            AnthropicServiceException s = (AnthropicServiceException) e;
            return new Refusal(s.statusCode(), s.getMessage());
        }), "insufficient_quota");
    }

    @Test
    void generateContentThroughTheGoogleSdkIs402OnceTheKeyBudgetIsReached() throws Exception {
        Key key = budgetedKey();
        Client client = Client.builder().apiKey(key.secret()).httpOptions(HttpOptions.builder().baseUrl(gateway().baseUrl())
                .apiVersion("v1beta").timeout(15_000).build()).build();
        GenerateContentConfig config = GenerateContentConfig.builder().maxOutputTokens(50).build();
        namesTheKeyBudget(spendUntilRefused(key, () -> client.models.generateContent("budget-chat", "Say hi.", config), e -> {
            ClientException s = (ClientException) e;
            return new Refusal(s.code(), s.status() + " " + s.getMessage());
        }), "FAILED_PRECONDITION");
    }
}
