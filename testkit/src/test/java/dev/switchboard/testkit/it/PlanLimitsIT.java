package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.User;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A plan's limits ({@code plans: {team: {rpm: 3}}}) count per user across all of the user's keys: two keys of one
 * user on the plan get 3 requests together and the next is a 429 naming the plan's rpm and when it has room again;
 * another user on the same plan has a window of its own. The same for a plan's daily token cap. The admin API shows
 * the plans with their limits.
 */
class PlanLimitsIT {
    static final String CONFIG = ItSupport.oneModelConfig("plan-chat", "{input: 1, output: 2}", """
            plans:
              team: {models: [plan-chat], rpm: 3}
              daily: {models: [plan-chat], daily_tokens: 400}
            """);

    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = ItSupport.openAiGateway(CONFIG);

    private static TestGateway gateway() {
        return GATEWAY.gateway();
    }

    /** A user on {@code plan} (which covers the model, so no credit is needed) and two keys of it. */
    private static List<OpenAIClient> twoKeysOnPlan(String name, String plan) {
        AdminService admin = gateway().app().accounts().admin();
        User u = admin.createUser(new AdminService.CreateUser(Optional.of(name), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty()));
        HttpResponse<String> put = ItSupport.put(gateway(), "/admin/v1/users/" + u.id() + "/plan",
                ItSupport.bearer(gateway().adminKey()), "{\"plan\": \"" + plan + "\"}");
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        return List.of(client(admin.createKey(u.id(), AdminService.CreateKey.defaults()).secret()),
                client(admin.createKey(u.id(), AdminService.CreateKey.defaults()).secret()));
    }

    private static OpenAIClient client(String key) {
        return OpenAIOkHttpClient.builder().baseUrl(gateway().openAiBaseUrl()).apiKey(key).maxRetries(0)
                .timeout(Duration.ofSeconds(15)).build();
    }

    private static ChatCompletionCreateParams ask() {
        return ChatCompletionCreateParams.builder().model("plan-chat").addUserMessage("Say hi.").maxCompletionTokens(50).build();
    }

    @Test
    void thePlansRpmCountsAcrossTheUsersKeysAndTheNextRequestIs429NamingIt() {
        List<OpenAIClient> keys = twoKeysOnPlan("team-a", "team");
        for (int i = 0; i < 3; i++) {
            var raw = keys.get(i % 2).chat().completions().withRawResponse().create(ask());
            assertThat(raw.statusCode()).isEqualTo(200);
            assertThat(raw.headers().values("x-ratelimit-limit-requests")).containsExactly("3");
            assertThat(raw.headers().values("x-ratelimit-remaining-requests")).containsExactly(Integer.toString(2 - i));
            raw.parse();
        }

        RateLimitException e = assertThrows(RateLimitException.class, () -> keys.get(1).chat().completions().create(ask()));
        assertThat(e.statusCode()).isEqualTo(429);
        assertThat(e.getMessage()).contains("Rate limit reached: the team plan's rpm (3 requests per minute) is used up",
                "it has room again at ");
        assertThat(Long.parseLong(e.headers().values("retry-after").getFirst())).isBetween(55L, 60L);
        assertThat(assertThrows(RateLimitException.class, () -> keys.get(0).chat().completions().create(ask()))
                .getMessage()).contains("the team plan's rpm");

        List<OpenAIClient> other = twoKeysOnPlan("team-b", "team");
        assertThat(other.get(0).chat().completions().create(ask()).choices()).isNotEmpty();
    }

    @Test
    void thePlansDailyTokenCapCountsAcrossTheUsersKeysAndTheNextRequestIs429NamingIt() {
        List<OpenAIClient> keys = twoKeysOnPlan("daily-a", "daily");
        long used = 0;
        int answered = 0;
        RateLimitException refused = null;
        while (refused == null && answered < 50) {
            try {
                ChatCompletion c = keys.get(answered % 2).chat().completions().create(ask());
                used += c.usage().orElseThrow().totalTokens();
                answered++;
            } catch (RateLimitException e) {
                refused = e;
            }
        }
        assertThat(refused).as("the cap was reached after %d answers", answered).isNotNull();
        assertThat(answered).as("both keys were used before the cap was reached").isGreaterThanOrEqualTo(2);
        assertThat(refused.getMessage()).contains("Token limit reached: the daily plan's daily token cap (400 tokens per UTC day)",
                "it has room again at ", "T00:00:00Z");
        assertThat(refused.headers().values("x-ratelimit-limit-tokens")).containsExactly("400");
        assertThat(Long.parseLong(refused.headers().values("x-ratelimit-remaining-tokens").getFirst())).isEqualTo(400 - used);
        assertThat(used).isLessThanOrEqualTo(400);
    }

    @Test
    void theAdminApiShowsThePlansWithTheirLimits() {
        HttpResponse<String> r = ItSupport.get(gateway(), "/admin/v1/plans", ItSupport.bearer(gateway().adminKey()));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode plans = ItSupport.json(r.body()).path("plans");
        assertThat(plans).hasSize(2);
        assertThat(plans.get(0).path("id").asText()).isEqualTo("team");
        assertThat(plans.get(0).path("rpm").asLong()).isEqualTo(3);
        assertThat(plans.get(0).path("daily_tokens").isNull()).isTrue();
        assertThat(plans.get(0).path("models").get(0).asText()).isEqualTo("plan-chat");
        assertThat(plans.get(1).path("daily_tokens").asLong()).isEqualTo(400);
        assertThat(plans.get(1).path("rpm").isNull()).isTrue();
        assertThat(ItSupport.get(gateway(), "/admin/v1/plans", ItSupport.bearer("wrong")).statusCode()).isEqualTo(401);
    }
}
