package dev.switchboard.engine.provider;

import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.ToolNames;
import dev.switchboard.wire.openai.OpenAi;
import dev.switchboard.wire.openai.OpenAiUpstreamOptions;
import dev.switchboard.wire.openai.OpenAiUpstreamStreamParser;
import dev.switchboard.engine.catalog.ProviderFlavour;

/**
 * OpenAI-compatible upstreams (OpenAI, OpenRouter, vLLM, DeepSeek...): {@code POST {base_url}/chat/completions}
 * with {@code Authorization: Bearer <provider key>}. The caller's own key is never sent: only the
 * provider's, plus the provider's configured static headers.
 */
public final class OpenAiDialect extends WireDialect {
    private static final String PATH = "/chat/completions";

    public OpenAiDialect() {
        super(ToolNames.Rule.OPENAI,
                (attempt, body) -> OpenAi.fromUpstream(body),
                attempt -> StreamParser.of(new OpenAiUpstreamStreamParser()),
                OpenAi::errorFromUpstream,
                attempt -> OpenAi.notCarried(attempt.request(), options(attempt.provider().flavour())));
    }

    @Override
    public HttpCall call(Attempt attempt, boolean stream) {
        byte[] body = Json.writeBytes(OpenAi.toUpstream(attempt.request(), attempt.upstreamModel(), stream,
                options(attempt.provider().flavour())));
        return BearerCall.of(attempt, PATH, body, stream);
    }

    /**
     * What the server behind the provider accepts, as its configured flavour says (never its host name):
     * OpenAI's own API needs {@code max_completion_tokens} (its reasoning models reject {@code max_tokens})
     * and rejects fields it does not define; compatible servers and OpenRouter take {@code top_k}, echoed
     * reasoning and extra fields; Google's compatible endpoint takes Gemini thought signatures.
     */
    static OpenAiUpstreamOptions options(ProviderFlavour flavour) {
        return switch (flavour) {
            case OPENAI -> OpenAiUpstreamOptions.OPENAI;
            case COMPATIBLE, OPENROUTER -> new OpenAiUpstreamOptions(OpenAiUpstreamOptions.MaxTokensField.MAX_TOKENS, true, true,
                    false, true);
            case GOOGLE -> new OpenAiUpstreamOptions(OpenAiUpstreamOptions.MaxTokensField.MAX_TOKENS, false, false, true, false);
        };
    }
}
