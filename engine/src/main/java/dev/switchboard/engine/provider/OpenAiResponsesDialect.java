package dev.switchboard.engine.provider;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.ToolNames;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesUpstreamOptions;

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
public final class OpenAiResponsesDialect extends WireDialect {
    private static final String PATH = "/responses";

    /** The request's stop sequences are applied to the answer (the format has none of its own). */
    public OpenAiResponsesDialect() {
        super(ToolNames.Rule.OPENAI,
                (attempt, body) -> Responses.fromUpstream(body, attempt.request().stop()),
                attempt -> StreamParser.of(Responses.upstreamStreamParser(attempt.request().stop())),
                Responses::errorFromUpstream,
                attempt -> Responses.notCarried(attempt.request()));
    }

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
}
