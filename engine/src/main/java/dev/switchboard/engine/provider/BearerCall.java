package dev.switchboard.engine.provider;

import dev.switchboard.engine.upstream.HttpCall;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The call of an OpenAI-style upstream (chat completions and Responses alike): {@code POST {base_url}{path}}
 * with the provider's static headers and {@code Authorization: Bearer <provider key>}. The caller's own key
 * is never sent, only the provider's. Also how every dialect joins a base URL and a path.
 */
final class BearerCall {
    private BearerCall() {
    }

    static HttpCall of(Attempt attempt, String path, byte[] body, boolean stream) {
        Map<String, String> headers = new LinkedHashMap<>(attempt.provider().headers());
        if (!attempt.apiKey().isEmpty()) {
            headers.put("authorization", "Bearer " + attempt.apiKey());
        }
        return new HttpCall(endpoint(attempt.provider().baseUrl(), path), headers, body, stream);
    }

    /** {@code base} and {@code path} (starting with a slash) joined with one slash, whatever the base ends in. */
    static URI endpoint(URI base, String path) {
        return URI.create(withoutTrailingSlash(base) + path);
    }

    /** The base URL as text, without the slash it may end in: what every dialect appends its path to. */
    static String withoutTrailingSlash(URI base) {
        String s = base.toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
