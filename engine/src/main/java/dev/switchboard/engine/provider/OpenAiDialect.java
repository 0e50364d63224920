package dev.switchboard.engine.provider;

import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.ToolNames;
import dev.switchboard.wire.openai.OpenAi;
import dev.switchboard.wire.openai.OpenAiUpstreamOptions;
import dev.switchboard.wire.openai.OpenAiUpstreamStreamParser;
import java.net.URI;

/**
 * OpenAI-compatible upstreams (OpenAI, OpenRouter, vLLM, DeepSeek...): {@code POST {base_url}/chat/completions}
 * with {@code Authorization: Bearer <provider key>}. The caller's own key is never sent: only the
 * provider's, plus the provider's configured static headers.
 */
public final class OpenAiDialect implements Dialect {
    private static final String PATH = "/chat/completions";

    @Override
    public HttpCall call(Attempt attempt, boolean stream) {
        byte[] body = Json.writeBytes(OpenAi.toUpstream(attempt.request(), attempt.upstreamModel(), stream,
                options(attempt.provider().baseUrl())));
        return BearerCall.of(attempt, PATH, body, stream);
    }

    /**
     * What the server behind {@code base} accepts: OpenAI's own API needs {@code max_completion_tokens}
     * (its reasoning models reject {@code max_tokens}) and rejects unknown fields; OpenRouter takes
     * {@code top_k} and echoed reasoning; other compatible servers get the widely understood defaults.
     */
    static OpenAiUpstreamOptions options(URI base) {
        String host = String.valueOf(base.getHost());
        if (host.equals("api.openai.com")) {
            return new OpenAiUpstreamOptions(OpenAiUpstreamOptions.MaxTokensField.MAX_COMPLETION_TOKENS, false, false, false);
        }
        if (host.equals("openrouter.ai")) {
            return new OpenAiUpstreamOptions(OpenAiUpstreamOptions.MaxTokensField.MAX_TOKENS, true, true, false);
        }
        if (host.equals("generativelanguage.googleapis.com")) {
            return new OpenAiUpstreamOptions(OpenAiUpstreamOptions.MaxTokensField.MAX_TOKENS, false, false, true);
        }
        return OpenAiUpstreamOptions.DEFAULT;
    }

    @Override
    public ChatResponse response(Attempt attempt, byte[] body) {
        return OpenAi.fromUpstream(Json.parse(body));
    }

    @Override
    public StreamParser streamParser(Attempt attempt) {
        OpenAiUpstreamStreamParser parser = new OpenAiUpstreamStreamParser();
        return StreamParser.of((event, data) -> parser.onData(data), parser::onEnd);
    }

    @Override
    public GatewayError error(int status, byte[] body) {
        return OpenAi.errorFromUpstream(status, body);
    }

    @Override
    public ToolNames.Rule toolNames() {
        return ToolNames.Rule.OPENAI;
    }
}
