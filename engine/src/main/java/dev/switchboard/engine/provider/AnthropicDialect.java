package dev.switchboard.engine.provider;

import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.ToolNames;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.anthropic.AnthropicUpstreamStreamParser;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Anthropic-style upstreams: {@code POST {base_url}/v1/messages} (the base URL is what Anthropic's own
 * SDK is given, e.g. {@code https://api.anthropic.com}) with {@code x-api-key: <provider key>},
 * {@code anthropic-version: 2023-06-01} and, when the request needs them, {@code anthropic-beta}. The
 * caller's own key is never sent: only the provider's, plus the provider's configured static headers.
 * {@code max_tokens}, which Anthropic requires, defaults to the model's {@code max_output_tokens}.
 */
public final class AnthropicDialect extends WireDialect {
    /** The API version the wire package's translation is written against. */
    static final String VERSION = "2023-06-01";

    public AnthropicDialect() {
        super(ToolNames.Rule.ANTHROPIC,
                (attempt, body) -> Anthropic.fromUpstream(body),
                attempt -> StreamParser.of(new AnthropicUpstreamStreamParser()),
                Anthropic::errorFromUpstream,
                attempt -> Anthropic.notCarried(attempt.request()));
    }

    @Override
    public HttpCall call(Attempt attempt, boolean stream) {
        ProviderConfig provider = attempt.provider();
        ChatRequest request = attempt.request();
        Map<String, String> headers = new LinkedHashMap<>();
        String configuredBetas = "";
        for (Map.Entry<String, String> h : provider.headers().entrySet()) {
            if (h.getKey().equalsIgnoreCase("anthropic-beta")) {
                configuredBetas = h.getValue(); // merged below with what this request needs
            } else {
                headers.put(h.getKey(), h.getValue());
            }
        }
        if (!attempt.apiKey().isEmpty()) {
            headers.put("x-api-key", attempt.apiKey());
        }
        headers.put("anthropic-version", VERSION);
        betas(configuredBetas, Anthropic.requiredBetas(request)).ifPresent(b -> headers.put("anthropic-beta", b));
        byte[] body = Json.writeBytes(Anthropic.toUpstream(request, attempt.upstreamModel(), stream,
                attempt.model().maxOutputTokens()));
        return new HttpCall(endpoint(provider.baseUrl()), headers, body, stream);
    }

    /** The configured betas plus the required ones, each once, comma-separated as Anthropic reads them. */
    static Optional<String> betas(String configured, List<String> required) {
        Set<String> all = new LinkedHashSet<>();
        Arrays.stream(configured.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(all::add);
        all.addAll(required);
        return all.isEmpty() ? Optional.empty() : Optional.of(String.join(",", all));
    }

    static URI endpoint(URI base) {
        return BearerCall.endpoint(base, "/v1/messages");
    }
}
