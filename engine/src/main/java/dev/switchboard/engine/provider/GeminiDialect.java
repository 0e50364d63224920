package dev.switchboard.engine.provider;

import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ReasoningProfile.EffortAs;
import dev.switchboard.engine.catalog.ThinkingBudget;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.ToolNames;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.gemini.GeminiUpstreamOptions;
import dev.switchboard.wire.gemini.GeminiUpstreamOptions.EffortMapping;
import dev.switchboard.wire.gemini.GeminiUpstreamStreamParser;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * Google's Gemini API: {@code POST {base_url}/v1beta/models/{model}:generateContent}, streamed as
 * {@code :streamGenerateContent?alt=sse} (server-sent events, which {@link HttpProviderAdapter} reads;
 * without {@code alt=sse} Google sends one JSON array), with {@code x-goog-api-key: <provider key>}. The
 * key travels in a header, never in the URL, so it cannot end up in a log line that prints a URL.
 *
 * <p>How a reasoning effort is expressed depends on the model generation (Google rejects the other shape
 * or both together): the model's configured {@code reasoning.effort_as} decides; without it, an upstream
 * model named {@code gemini-1...} or {@code gemini-2...} gets a {@code thinkingBudget} and any other name a
 * {@code thinkingLevel} (Gemini 3 onwards, the newest generation being the likeliest unknown).
 */
public final class GeminiDialect extends WireDialect {
    /** Gemini generations before 3 take only {@code thinkingBudget}; the name is a last resort when config is silent. */
    private static final Pattern BUDGET_GENERATION = Pattern.compile("gemini-[12](?![0-9]).*");

    public GeminiDialect() {
        super(ToolNames.Rule.GEMINI,
                (attempt, body) -> Gemini.fromUpstream(body),
                attempt -> StreamParser.of(new GeminiUpstreamStreamParser()),
                Gemini::errorFromUpstream,
                attempt -> Gemini.notCarried(attempt.request()));
    }

    @Override
    public HttpCall call(Attempt attempt, boolean stream) {
        ProviderConfig provider = attempt.provider();
        Map<String, String> headers = new LinkedHashMap<>(provider.headers());
        if (!attempt.apiKey().isEmpty()) {
            headers.put("x-goog-api-key", attempt.apiKey());
        }
        byte[] body = Json.writeBytes(Gemini.toUpstream(attempt.request(), options(attempt)));
        return new HttpCall(endpoint(provider.baseUrl(), attempt.upstreamModel(), stream), headers, body, stream);
    }

    static GeminiUpstreamOptions options(Attempt attempt) {
        EffortAs as = attempt.model().reasoning().effortAs().orElseGet(() -> byName(attempt.upstreamModel()));
        EffortMapping mapping = as == EffortAs.BUDGET ? EffortMapping.THINKING_BUDGET : EffortMapping.THINKING_LEVEL;
        // the catalog's budget range bounds every thinkingBudget sent, also one an effort maps to
        if (attempt.model().reasoning().budget().orElse(null) instanceof ThinkingBudget.Range range) {
            return new GeminiUpstreamOptions(mapping, OptionalInt.of(range.min()), OptionalInt.of(range.max()));
        }
        return new GeminiUpstreamOptions(mapping);
    }

    /** The generation guess from a name such as {@code gemini-2.5-pro}, {@code models/gemini-2.0-flash} or {@code gemini-3-pro-preview}. */
    static EffortAs byName(String upstreamModel) {
        String name = upstreamModel.substring(upstreamModel.lastIndexOf('/') + 1);
        return BUDGET_GENERATION.matcher(name).matches() ? EffortAs.BUDGET : EffortAs.LEVEL;
    }

    /**
     * {@code base} is what Google's SDKs take as base URL, without the API version: the path brings
     * {@code /v1beta}. A base that already ends in {@code /v1beta} (a common slip) is not doubled.
     */
    static URI endpoint(URI base, String upstreamModel, boolean stream) {
        String s = BearerCall.withoutTrailingSlash(base);
        s = s.endsWith("/v1beta") ? s.substring(0, s.length() - "/v1beta".length()) : s;
        return URI.create(s + Gemini.path(upstreamModel, stream));
    }
}
