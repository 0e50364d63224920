package dev.switchboard.engine.provider;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.ToolNames;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesUpstreamOptions;
import dev.switchboard.wire.responses.ResponsesUpstreamStreamParser;

/**
 * Upstreams of {@code type: openai-responses}: OpenAI's Responses API, {@code POST {base_url}/responses}
 * (the base URL given as for {@code type: openai}, e.g. {@code https://api.openai.com/v1}) with
 * {@code Authorization: Bearer <provider key>}. Stateless: nothing is stored at the provider, every turn is
 * sent whole, and a reasoning model's encrypted reasoning comes back with the answer and goes back with the
 * next turn. The caller's own key is never sent: only the provider's, plus the provider's static headers.
 *
 * <p>What the model accepts comes from its record: reasoning controls and encrypted reasoning only for
 * models flagged {@code supports_reasoning}, {@code temperature}/{@code top_p} only when its
 * {@code refused_params} do not name them (OpenAI refuses each otherwise). The format has no stop sequences; the gateway applies the
 * request's own to the answer.
 */
public final class OpenAiResponsesDialect implements Dialect {
    private static final String PATH = "/responses";

    @Override
    public HttpCall call(Attempt attempt, boolean stream) {
        byte[] body = Json.writeBytes(Responses.toUpstream(attempt.request(), attempt.upstreamModel(), stream,
                options(attempt.model())));
        return BearerCall.of(attempt, PATH, body, stream);
    }

    static ResponsesUpstreamOptions options(ModelEntry model) {
        return new ResponsesUpstreamOptions(model.capabilities().supportsReasoning(),
                !model.refusedParams().contains("temperature"), !model.refusedParams().contains("top_p"));
    }

    @Override
    public ChatResponse response(Attempt attempt, byte[] body) {
        return Responses.fromUpstream(Json.parse(body), attempt.request().stop());
    }

    @Override
    public StreamParser streamParser(Attempt attempt) {
        ResponsesUpstreamStreamParser parser = Responses.upstreamStreamParser(attempt.request().stop());
        return StreamParser.of(parser::onEvent, parser::onEnd);
    }

    @Override
    public GatewayError error(int status, byte[] body) {
        return Responses.errorFromUpstream(status, body);
    }

    @Override
    public ToolNames.Rule toolNames() {
        return ToolNames.Rule.OPENAI;
    }

    @Override
    public java.util.List<String> notCarried(Attempt attempt) {
        return Responses.notCarried(attempt.request());
    }
}
