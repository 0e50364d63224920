package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.errors.ApiException;
import com.google.genai.errors.ClientException;
import com.google.genai.errors.ServerException;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.ListModelsConfig;
import com.google.genai.types.Model;
import dev.switchboard.testkit.it.GeminiItSupport.Auth;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The content-parts endpoints themselves, judged by the Google GenAI SDK where it can speak and by raw HTTP
 * where it cannot: the three ways to present a key, model discovery, errors in Google's shape (spec 7 plus
 * the status word, docs/contracts.md §4), both stream framings, the {@code /v1} base, failover and scopes.
 */
class GenerateContentApiIT {
    @RegisterExtension
    static final SdkGateway<Client> GATEWAY = GeminiItSupport.gateway(GeminiItSupport.CONFIG, GeminiItSupport::client);

    private static Map<String, String> googleKey(String key) {
        return Map.of("x-goog-api-key", key, "content-type", "application/json");
    }

    private static HttpResponse<String> generate(String pathAndQuery, String body) {
        return ItSupport.post(GATEWAY.gateway(), pathAndQuery, googleKey(GATEWAY.gateway().apiKey()), body);
    }

    private static JsonNode error(HttpResponse<String> response) {
        return ItSupport.json(response.body()).path("error");
    }

    private static void assertGoogleEnvelope(HttpResponse<String> response, int status, String word) {
        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode error = error(response);
        assertThat(error.path("code").asText()).isEqualTo(Integer.toString(status));
        assertThat(error.path("status").asText()).isEqualTo(word);
        assertThat(error.path("message").asText()).isNotBlank();
        assertThat(error.path("type").asText()).isNotBlank();
        assertThat(error.has("param")).isTrue();
    }

    private static final String HI = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]}";

    @ParameterizedTest
    @EnumSource(Auth.class)
    void everyWayOfPresentingTheKeyWorksAndNoneReachesTheUpstream(Auth auth) {
        Client sdk = GeminiItSupport.client(GATEWAY.gateway(), GATEWAY.gateway().apiKey(), auth, "v1beta");

        GenerateContentResponse response = sdk.models.generateContent("gm-basic", "hi", null);

        assertThat(response.text()).isEqualTo("Hello from g-basic! You said: hi");
        var sent = GeminiItSupport.onlyRequest(GATEWAY.gateway(), "g-basic");
        assertThat(sent.header("x-goog-api-key")).contains(GeminiItSupport.GOOGLE_KEY);
        assertThat(sent.query()).doesNotContain("key=");
        assertThat(sent.header("authorization")).isEmpty();
        assertThat(sent.toString()).doesNotContain(GATEWAY.gateway().apiKey());
    }

    @ParameterizedTest
    @EnumSource(Auth.class)
    void aWrongKeyIs401UnauthenticatedWhereverItIs(Auth auth) {
        Client sdk = GeminiItSupport.client(GATEWAY.gateway(), "sk-sb-not-a-real-key", auth, "v1beta");

        ClientException e = assertThrows(ClientException.class, () -> sdk.models.generateContent("gm-basic", "hi", null));

        assertThat(e.code()).isEqualTo(401);
        assertThat(e.status()).isEqualTo("UNAUTHENTICATED");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void aMissingKeyIs401InTheSpecEnvelopeWithGooglesStatusWord() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1beta/models/gm-basic:generateContent",
                Map.of("content-type", "application/json"), HI);

        assertGoogleEnvelope(response, 401, "UNAUTHENTICATED");
        assertThat(error(response).path("message").asText()).contains("x-goog-api-key");
    }

    @Test
    void theKeyParameterWinsOverTheHeaders() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1beta/models/gm-basic:generateContent?key=" + GATEWAY.gateway().apiKey(),
                Map.of("x-goog-api-key", "wrong", "authorization", "Bearer wrong", "content-type", "application/json"), HI);

        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void modelsListIsGooglesModelResourceAndPagesWithTheSdk() {
        List<Model> all = new ArrayList<>();
        GATEWAY.client().models.list(ListModelsConfig.builder().pageSize(3).build()).forEach(all::add);

        assertThat(all).extracting(m -> m.name().orElseThrow())
                .contains("models/gm-basic", "models/gm-tools", "models/oa-basic", "models/an-think")
                .doesNotContain("models/gm-plan") // not in the test user's plan
                .doesNotHaveDuplicates();
        Model basic = all.stream().filter(m -> m.name().orElseThrow().equals("models/gm-basic")).findFirst().orElseThrow();
        assertThat(basic.displayName()).contains("Gemini via the fake");
        assertThat(basic.inputTokenLimit()).contains(8192);
        assertThat(basic.outputTokenLimit()).contains(1024);
        assertThat(basic.supportedActions().orElseThrow()).contains("generateContent", "streamGenerateContent");
        assertThat(basic.thinking()).contains(false);
        Model tools = all.stream().filter(m -> m.name().orElseThrow().equals("models/gm-tools")).findFirst().orElseThrow();
        assertThat(tools.thinking()).contains(true);

        JsonNode page = ItSupport.json(ItSupport.get(GATEWAY.gateway(), "/v1beta/models?pageSize=3", googleKey(GATEWAY.gateway().apiKey())).body());
        assertThat(page.path("models")).hasSize(3);
        assertThat(page.path("nextPageToken").asText()).isNotBlank();
    }

    @Test
    void oneModelByIdOrAliasAndUnknownOnesAreNotFound() {
        Model model = GATEWAY.client().models.get("gm-basic", null);
        Model byAlias = GATEWAY.client().models.get("models/gm-old", null);

        assertThat(model.name()).contains("models/gm-basic");
        assertThat(byAlias.name()).contains("models/gm-basic");
        ClientException unknown = assertThrows(ClientException.class, () -> GATEWAY.client().models.get("no-such-model", null));
        assertThat(unknown.code()).isEqualTo(404);
        assertThat(unknown.status()).isEqualTo("NOT_FOUND");
        ClientException gated = assertThrows(ClientException.class, () -> GATEWAY.client().models.get("gm-plan", null));
        assertThat(gated.code()).isEqualTo(404);
    }

    @Test
    void badPageParametersAre400NamingTheField() {
        HttpResponse<String> response = ItSupport.get(GATEWAY.gateway(), "/v1beta/models?pageToken=abc", googleKey(GATEWAY.gateway().apiKey()));

        assertGoogleEnvelope(response, 400, "INVALID_ARGUMENT");
        assertThat(error(response).path("param").asText()).isEqualTo("pageToken");
    }

    @Test
    void unknownModelIs404NotFoundForTheSdk() {
        ClientException e = assertThrows(ClientException.class, () -> GATEWAY.client().models.generateContent("no-such-model", "hi", null));

        assertThat(e.code()).isEqualTo(404);
        assertThat(e.status()).isEqualTo("NOT_FOUND");
        assertThat(e.message()).contains("no-such-model");
    }

    @Test
    void invalidBodiesAre400NamingTheFieldAndReachNoUpstream() {
        HttpResponse<String> noContents = generate("/v1beta/models/gm-basic:generateContent", "{\"generationConfig\":{}}");
        HttpResponse<String> badPart = generate("/v1beta/models/gm-basic:generateContent",
                "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":7}]}]}");
        HttpResponse<String> notJson = generate("/v1beta/models/gm-basic:generateContent", "{\"contents\":");

        assertGoogleEnvelope(noContents, 400, "INVALID_ARGUMENT");
        assertThat(error(noContents).path("param").asText()).isEqualTo("contents");
        assertGoogleEnvelope(badPart, 400, "INVALID_ARGUMENT");
        assertThat(error(badPart).path("param").asText()).startsWith("contents[0].parts[0]");
        assertGoogleEnvelope(notJson, 400, "INVALID_ARGUMENT");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void anUnknownMethodIs404InGooglesShape() {
        HttpResponse<String> response = generate("/v1beta/models/gm-basic:embedContent", HI);

        assertGoogleEnvelope(response, 404, "NOT_FOUND");
        assertThat(error(response).path("message").asText()).contains("embedContent");
    }

    @Test
    void theModelInTheBodyIsIgnored() {
        HttpResponse<String> response = generate("/v1beta/models/gm-basic:generateContent",
                "{\"model\":\"oa-basic\",\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(ItSupport.json(response.body()).path("modelVersion").asText()).isEqualTo("gm-basic");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("g-basic");
    }

    @Test
    void modelIdsWithASlashWorkPlainEncodedAndAsResources() {
        GenerateContentResponse response = GATEWAY.client().models.generateContent("vendor/gm-slash", "hi", null);
        HttpResponse<String> encoded = generate("/v1beta/models/vendor%2Fgm-slash:generateContent", HI);

        assertThat(response.text()).isEqualTo("Hello from g-slash! You said: hi");
        assertThat(response.modelVersion()).contains("vendor/gm-slash");
        assertThat(encoded.statusCode()).isEqualTo(200);
        assertThat(GATEWAY.client().models.get("vendor/gm-slash", null).name()).contains("models/vendor/gm-slash");
    }

    @Test
    void theV1BaseServesTheSameCalls() {
        Client v1 = GeminiItSupport.client(GATEWAY.gateway(), GATEWAY.gateway().apiKey(), Auth.HEADER, "v1");

        assertThat(v1.models.generateContent("oa-basic", "hi", null).text()).isEqualTo("Hello from up-basic! You said: hi");
        StringBuilder streamed = new StringBuilder();
        try (ResponseStream<GenerateContentResponse> s = v1.models.generateContentStream("gm-basic", "hi", null)) {
            s.forEach(c -> streamed.append(c.text() == null ? "" : c.text()));
        }
        assertThat(streamed.toString()).isEqualTo("Hello from g-basic! You said: hi");
    }

    @Test
    void altSseIsServerSentEventsOfWholeResponseChunks() {
        HttpResponse<String> response = generate("/v1beta/models/oa-basic:streamGenerateContent?alt=sse", HI);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type").orElseThrow()).startsWith("text/event-stream");
        List<JsonNode> chunks = ItSupport.sseData(response.body()).stream().map(ItSupport::json).toList();
        assertThat(chunks).hasSizeGreaterThan(2);
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.path("modelVersion").asText()).isEqualTo("oa-basic");
            assertThat(c.at("/candidates/0/content/role").asText()).isEqualTo("model");
        });
        JsonNode last = chunks.getLast();
        assertThat(last.at("/candidates/0/content/parts")).isEmpty();
        assertThat(last.at("/candidates/0/finishReason").asText()).isEqualTo("STOP");
        assertThat(last.at("/usageMetadata/totalTokenCount").asInt()).isPositive();
    }

    @Test
    void withoutAltTheStreamIsOneJsonArrayOfTheSameChunks() {
        HttpResponse<String> response = generate("/v1beta/models/gm-basic:streamGenerateContent", HI);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type").orElseThrow()).startsWith("application/json");
        JsonNode array = ItSupport.json(response.body());
        assertThat(array.isArray()).isTrue();
        assertThat(array.size()).isGreaterThan(2);
        StringBuilder text = new StringBuilder();
        array.forEach(c -> c.at("/candidates/0/content/parts").forEach(p -> text.append(p.path("text").asText())));
        assertThat(text.toString()).isEqualTo("Hello from g-basic! You said: hi");
        JsonNode last = array.get(array.size() - 1);
        assertThat(last.at("/candidates/0/finishReason").asText()).isEqualTo("STOP");
        assertThat(last.at("/usageMetadata/promptTokenCount").asInt()).isPositive();
    }

    @Test
    void aStreamThatFailsMidwayEndsWithAnErrorElementInBothFramings() {
        HttpResponse<String> sse = generate("/v1beta/models/gm-midfail:streamGenerateContent?alt=sse", HI);
        HttpResponse<String> array = generate("/v1beta/models/gm-midfail:streamGenerateContent", HI);

        List<JsonNode> events = ItSupport.sseData(sse.body()).stream().map(ItSupport::json).toList();
        JsonNode sseError = events.getLast().path("error");
        assertThat(sseError.path("code").isInt()).as("in a stream the SDK reads only a numeric code").isTrue();
        assertThat(sseError.path("code").asInt()).isGreaterThanOrEqualTo(500);
        assertThat(sseError.path("status").asText()).isNotBlank();
        JsonNode elements = ItSupport.json(array.body());
        assertThat(elements.isArray()).as("the array is closed after the error").isTrue();
        assertThat(elements.get(elements.size() - 1).path("error").path("code").asInt()).isGreaterThanOrEqualTo(500);

        ApiException e = assertThrows(ApiException.class, () -> {
            try (ResponseStream<GenerateContentResponse> s = GATEWAY.client().models.generateContentStream("gm-midfail", "hi", null)) {
                s.forEach(c -> { });
            }
        });
        assertThat(e.code()).isGreaterThanOrEqualTo(500);
    }

    @Test
    void failoverCrossesFormatsAndIsInvisible() {
        GenerateContentResponse response = GATEWAY.client().models.generateContent("gm-failover", "hi", null);

        assertThat(response.text()).isEqualTo("Hello from up-rescue! You said: hi");
        assertThat(response.modelVersion()).contains("gm-failover");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("g-first-fail503", "up-rescue");
    }

    @Test
    void whenEveryProviderFailsTheSdkGets503Unavailable() {
        ServerException plain = assertThrows(ServerException.class, () -> GATEWAY.client().models.generateContent("gm-down", "hi", null));
        ServerException streamed = assertThrows(ServerException.class, () -> {
            try (ResponseStream<GenerateContentResponse> s = GATEWAY.client().models.generateContentStream("gm-down", "hi", null)) {
                s.forEach(c -> { });
            }
        });

        for (ServerException e : List.of(plain, streamed)) {
            assertThat(e.code()).isEqualTo(503);
            assertThat(e.status()).isEqualTo("UNAVAILABLE");
        }
    }

    @Test
    void keyScopesAndPlansApplyAsOnChatCompletions() {
        String chatOnly = GATEWAY.gateway().newKey(List.of(), List.of("chat_completions"));
        String oneModel = GATEWAY.gateway().newKey(List.of("gm-basic"), List.of());

        HttpResponse<String> wrongEndpoint = ItSupport.post(GATEWAY.gateway(), "/v1beta/models/gm-basic:generateContent", googleKey(chatOnly), HI);
        HttpResponse<String> wrongModel = ItSupport.post(GATEWAY.gateway(), "/v1beta/models/oa-basic:generateContent", googleKey(oneModel), HI);
        HttpResponse<String> needsPlan = generate("/v1beta/models/gm-plan:generateContent", HI);
        var basic = GATEWAY.gateway().app().accounts().admin().createUser(new dev.switchboard.engine.account.AdminService.CreateUser(
                java.util.Optional.of("basic-user"), java.util.Optional.empty(), java.util.Optional.empty(),
                java.util.Optional.of("basic"), java.util.Optional.of("10")));
        String basicKey = GATEWAY.gateway().app().accounts().admin().createKey(basic.id(),
                dev.switchboard.engine.account.AdminService.CreateKey.defaults()).secret();
        HttpResponse<String> notInPlan = ItSupport.post(GATEWAY.gateway(), "/v1beta/models/gm-plan:generateContent", googleKey(basicKey), HI);
        JsonNode listed = ItSupport.json(ItSupport.get(GATEWAY.gateway(), "/v1beta/models", googleKey(oneModel)).body()).path("models");

        assertGoogleEnvelope(wrongEndpoint, 403, "PERMISSION_DENIED");
        assertThat(error(wrongEndpoint).path("type").asText()).isEqualTo("insufficient_scope");
        assertGoogleEnvelope(wrongModel, 403, "PERMISSION_DENIED");
        // A pay-as-you-go caller needs a subscription for a plan-only model; one whose plan excludes it is denied.
        assertGoogleEnvelope(needsPlan, 402, "FAILED_PRECONDITION");
        assertThat(error(needsPlan).path("type").asText()).isEqualTo("insufficient_quota");
        assertThat(error(needsPlan).path("message").asText()).contains("needs an active subscription");
        assertGoogleEnvelope(notInPlan, 403, "PERMISSION_DENIED");
        assertThat(error(notInPlan).path("type").asText()).isEqualTo("model_access_denied");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).path("name").asText()).isEqualTo("models/gm-basic");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }
}
