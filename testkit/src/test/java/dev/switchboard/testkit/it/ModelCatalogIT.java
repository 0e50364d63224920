package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.models.models.Model;
import dev.switchboard.testkit.TestGateway;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shipped catalog as a user of the embedded default sees it, with a key for every vendor set: model
 * discovery lists it whole, every model priced, flagged, limited and traced to a dated source, and
 * allowed-params drops the sampling parameters a model refuses.
 */
class ModelCatalogIT {
    private static final Map<String, String> ALL_VENDOR_KEYS = Map.of("OPENAI_API_KEY", "sk-test-openai",
            "ANTHROPIC_API_KEY", "sk-ant-test", "GEMINI_API_KEY", "gm-test", "OPENROUTER_API_KEY", "sk-or-test");

    private static TestGateway gateway;
    private static Map<String, JsonNode> byId;

    @BeforeAll
    static void start() {
        gateway = TestGateway.startEmbeddedDefault(ALL_VENDOR_KEYS);
        JsonNode list = ItSupport.json(ItSupport.get(gateway, "/v1/models", ItSupport.bearer(gateway.apiKey())).body());
        byId = new HashMap<>();
        list.path("data").forEach(m -> byId.put(m.path("id").asText(), m));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void theModelListHoldsTheWholeShippedCatalogEachPricedFlaggedLimitedAndSourced() {
        assertThat(byId).hasSizeGreaterThanOrEqualTo(101).containsKey("switchboard-demo");
        List<String> problems = new ArrayList<>();
        byId.forEach((id, m) -> {
            if (id.equals("switchboard-demo")) {
                return;
            }
            JsonNode p = m.path("pricing");
            for (String price : List.of("input", "output", "cache_read", "cache_write_5m", "cache_write_1h")) {
                if (!p.path(price).isNumber() || p.path(price).decimalValue().signum() <= 0) {
                    problems.add(id + " has no positive pricing." + price);
                }
            }
            for (String flag : List.of("supports_reasoning", "supports_vision", "supports_tools", "supports_caching", "supports_json",
                    "responses_api")) {
                if (m.path(flag).isMissingNode()) {
                    problems.add(id + " lacks " + flag);
                }
            }
            if (m.path("context_length").asLong() <= 0 || m.path("max_output_tokens").asLong() <= 0) {
                problems.add(id + " lacks a context length or max_output_tokens");
            }
            if (!p.path("source").asText().startsWith("https://") || p.path("as_of").asText().isEmpty()) {
                problems.add(id + " names no source and date");
            }
            if (m.path("supports_reasoning").asBoolean() == m.path("reasoning").path("family").asText().equals("none")) {
                problems.add(id + " has a reasoning family that contradicts supports_reasoning");
            }
        });
        assertThat(problems).isEmpty();
        assertThat(LocalDate.parse(byId.get("claude-opus-5-5").path("pricing").path("as_of").asText()))
                .isEqualTo(LocalDate.of(2026, 11, 18));
    }

    @Test
    void theOpenAiSdkListsTheCatalogToo() {
        OpenAIClient client = ItSupport.client(gateway);

        List<String> ids = StreamSupport.stream(client.models().list().autoPager().spliterator(), false).map(Model::id).toList();

        assertThat(ids).hasSizeGreaterThanOrEqualTo(101).contains("gpt-6.1-sol", "claude-opus-5-5", "gemini-3.1-pro-preview");
    }

    @Test
    void theCodingAgentsDefaultModelsAreListedWithTheirPrices() {
        assertThat(byId.get("claude-opus-5-5").path("pricing").path("input").decimalValue()).isEqualByComparingTo(new BigDecimal("4"));
        assertThat(byId.get("claude-haiku-5-5").path("pricing").path("output").decimalValue()).isEqualByComparingTo(new BigDecimal("0.5"));
        assertThat(byId.get("gpt-6.1-sol").path("pricing").path("cache_read").decimalValue()).isEqualByComparingTo(new BigDecimal("0.1"));
        assertThat(byId.get("gpt-6.1-sol").path("responses_api").asText()).isEqualTo("for_reasoning_tools");
        assertThat(byId.get("gemini-3.5-flash-lite").path("pricing").path("input").decimalValue()).isEqualByComparingTo(new BigDecimal("0.3"));
        assertThat(byId).containsKeys("gemini-3.1-pro-preview", "gemini-3.5-flash", "gemini-3-flash-preview", "gpt-5.6-luna");
    }

    @Test
    void reasoningControlsAndTheirBudgetRangesAreListed() {
        JsonNode flash = byId.get("gemini-2.5-flash").path("reasoning");
        assertThat(flash.path("family").asText()).isEqualTo("hybrid");
        assertThat(flash.path("budget_tokens").path("max").asInt()).isEqualTo(24576);
        JsonNode haiku = byId.get("claude-haiku-4-5").path("reasoning").path("budget_tokens");
        assertThat(haiku.path("min").asInt()).isEqualTo(1024);
        assertThat(haiku.path("below_max_tokens").asBoolean()).isTrue();
        assertThat(byId.get("claude-opus-5-5").path("reasoning").path("budget_tokens").path("accepted").asBoolean(true)).isFalse();
        assertThat(byId.get("claude-opus-5-5").path("reasoning").path("family").asText()).isEqualTo("always");
    }

    @Test
    void allowedParamsDropWhatAModelRefuses() {
        JsonNode o3 = ItSupport.json(ItSupport.get(gateway, "/api/models/o3/allowed-params", Map.of()).body());
        JsonNode gpt41 = ItSupport.json(ItSupport.get(gateway, "/api/models/gpt-4.1/allowed-params", Map.of()).body());

        assertThat(texts(o3.path("allowed_params"))).doesNotContain("temperature", "top_p", "presence_penalty")
                .contains("reasoning_effort", "tools", "max_tokens");
        assertThat(texts(o3.path("refused_params"))).contains("temperature", "top_p");
        assertThat(texts(o3.path("defaultable_params"))).doesNotContain("temperature");
        // the same call for a model without refusals lists them, so their absence above means something
        assertThat(texts(gpt41.path("allowed_params"))).contains("temperature", "top_p", "presence_penalty");
        assertThat(texts(gpt41.path("refused_params"))).isEmpty();
    }

    @Test
    void aRetiredIdResolvesToItsHybridReplacement() {
        JsonNode sonnet = ItSupport.json(ItSupport.get(gateway, "/api/models/claude-3-7-sonnet-latest/allowed-params", Map.of()).body());

        assertThat(sonnet.path("id").asText()).isEqualTo("claude-sonnet-5");
        assertThat(byId.get("claude-sonnet-5").path("reasoning").path("family").asText()).isEqualTo("hybrid");
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
