package dev.switchboard.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.openai.OpenAi;
import dev.switchboard.wire.responses.Responses;
import java.util.List;
import org.junit.jupiter.api.Test;

class CostTest {
    /** $3 input, $15 output, $0.30 cache read, $3.75 5-minute writes, $6 1-hour writes per million tokens. */
    private static final Pricing SONNET = new Pricing(3_000_000_000L, 15_000_000_000L, 300_000_000L, 3_750_000_000L,
            6_000_000_000L);

    @Test
    void aFractionalPricePerMillionIsExactAndTheSumIsRoundedOnceHalfUp() {
        // $0.01875 per million tokens = 18_750_000 nano-dollars per million: 18.75 nano-dollars per token, exactly.
        Pricing p = new Pricing(18_750_000, 18_750_000, 1_875_000, 0, 0);
        assertThat(Cost.of(p, Usage.of(1_000_000, 0))).isEqualTo(18_750_000);
        assertThat(Cost.of(p, Usage.of(4, 0))).isEqualTo(75);
        assertThat(Cost.of(p, Usage.of(1, 0))).as("18.75 rounds up").isEqualTo(19);
        // 1 input (18.75) + 1 output (18.75) + 2 cache reads (3.75) = 41.25: rounded once to 41; rounding each class
        // first would give 19 + 19 + 4 = 42.
        assertThat(Cost.of(p, new Usage(3, 1, 0, 2, 0, 0, Usage.Provenance.REPORTED))).isEqualTo(41);
        // At $0.0004 per million (0.0004 nano-dollars a token), 1_250 tokens cost exactly half a nano-dollar: rounds up.
        Pricing tiny = new Pricing(400, 400, 0, 0, 0);
        assertThat(Cost.of(tiny, Usage.of(1_250, 0))).isEqualTo(1);
        assertThat(Cost.of(tiny, Usage.of(1_249, 0))).isEqualTo(0);
        // Split over two classes, neither of which reaches half a nano-dollar alone, the sum still does.
        assertThat(Cost.of(tiny, Usage.of(625, 625))).isEqualTo(1);
    }

    @Test
    void everyTokenClassAtItsOwnPriceReasoningBilledAsOutput() {
        // 10_000 prompt tokens of which 2_000 read from cache, 1_000 written for 5 minutes and 500 for an hour; 3_000
        // output tokens of which 1_000 reasoning.
        Usage u = new Usage(10_000, 3_000, 1_000, 2_000, 1_000, 500, Usage.Provenance.REPORTED);
        long expected = 6_500 * 3_000L + 3_000 * 15_000L + 2_000 * 300L + 1_000 * 3_750L + 500 * 6_000L; // nanos, /1000 tokens
        assertThat(Cost.of(SONNET, u)).isEqualTo(expected);
        assertThat(Cost.of(SONNET, u)).isEqualTo(19_500_000 + 45_000_000 + 600_000 + 3_750_000 + 3_000_000);
    }

    @Test
    void theDefaultCacheRatiosAreTheSpecsOnes() {
        Pricing p = Pricing.withDefaultCacheRatios(3_000_000_000L, 15_000_000_000L);
        assertThat(p.cacheReadPerMillion()).isEqualTo(300_000_000L);
        assertThat(p.cacheWrite5mPerMillion()).isEqualTo(3_750_000_000L);
        assertThat(p.cacheWrite1hPerMillion()).isEqualTo(6_000_000_000L);
    }

    @Test
    void openAiPromptTokensIncludeCachedOnesWhichAreBilledOnceAtTheReadPrice() {
        Usage u = OpenAi.fromUpstream(Json.parse("""
                {"id": "c1", "object": "chat.completion", "model": "m", "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "hi"}}],
                 "usage": {"prompt_tokens": 10000, "completion_tokens": 100, "total_tokens": 10100,
                           "prompt_tokens_details": {"cached_tokens": 8000}}}
                """)).usage();
        assertThat(Cost.of(SONNET, u)).isEqualTo(2_000 * 3_000L + 100 * 15_000L + 8_000 * 300L);
    }

    @Test
    void anthropicInputTokensExcludeCachedOnesWhichAreBilledOnceAtTheirOwnPrices() {
        Usage u = Anthropic.fromUpstream(Json.parse("""
                {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "stop_reason": "end_turn",
                 "content": [{"type": "text", "text": "hi"}],
                 "usage": {"input_tokens": 2000, "cache_read_input_tokens": 8000, "cache_creation_input_tokens": 1500,
                           "cache_creation": {"ephemeral_5m_input_tokens": 1000, "ephemeral_1h_input_tokens": 500},
                           "output_tokens": 100}}
                """)).usage();
        assertThat(Cost.of(SONNET, u)).isEqualTo(2_000 * 3_000L + 100 * 15_000L + 8_000 * 300L + 1_000 * 3_750L + 500 * 6_000L);
    }

    @Test
    void geminiPromptTokensIncludeCachedContentAndThoughtsAreOutput() {
        Usage u = Gemini.fromUpstream(Json.parse("""
                {"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}],
                 "usageMetadata": {"promptTokenCount": 10000, "cachedContentTokenCount": 8000, "candidatesTokenCount": 100,
                                   "thoughtsTokenCount": 50, "totalTokenCount": 10150}, "modelVersion": "m"}
                """)).usage();
        assertThat(Cost.of(SONNET, u)).isEqualTo(2_000 * 3_000L + 150 * 15_000L + 8_000 * 300L);
    }

    @Test
    void responsesInputTokensIncludeCachedOnes() {
        Usage u = Responses.fromUpstream(Json.parse("""
                {"id": "resp_1", "object": "response", "status": "completed", "model": "m",
                 "output": [{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                             "content": [{"type": "output_text", "text": "hi", "annotations": []}]}],
                 "usage": {"input_tokens": 10000, "input_tokens_details": {"cached_tokens": 8000},
                           "output_tokens": 100, "output_tokens_details": {"reasoning_tokens": 40}, "total_tokens": 10100}}
                """), List.of()).usage();
        assertThat(Cost.of(SONNET, u)).isEqualTo(2_000 * 3_000L + 100 * 15_000L + 8_000 * 300L);
    }

    @Test
    void affordableTokensRoundDownSoTheirCostNeverExceedsTheMoney() {
        assertThat(Cost.tokensAffordable(1_000, 15_000_000_000L)).isEqualTo(0);
        assertThat(Cost.tokensAffordable(15_000, 15_000_000_000L)).isEqualTo(1);
        assertThat(Cost.tokensAffordable(29_999, 15_000_000_000L)).isEqualTo(1);
        assertThat(Cost.tokensAffordable(0, 15_000_000_000L)).isZero();
        assertThat(Cost.tokensAffordable(5, 0)).isEqualTo(Long.MAX_VALUE);
    }
}
