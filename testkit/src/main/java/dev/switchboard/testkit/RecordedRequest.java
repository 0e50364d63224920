package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One HTTP request as the fake upstream received it, recorded on arrival (before it was answered, so a
 * request that is left hanging is already visible).
 *
 * <p>Contract: nothing is ever null. {@code path} is the request target up to {@code ?}, undecoded;
 * {@code query} is the raw text after {@code ?}, or empty. Header names are lower-case and map to their
 * values in arrival order. {@code body} is the entity with any chunked transfer coding removed; it is
 * copied in and out, so a record never changes. {@code json} is the parsed body, or a {@link MissingNode}
 * when the body is empty or not exactly one JSON value; treat it as read-only.
 */
public record RecordedRequest(
        String method,
        String path,
        String query,
        Map<String, List<String>> headers,
        byte[] body,
        JsonNode json) {

    // Gemini names the model in the path: /v1beta/models/{model}:generateContent
    private static final Pattern MODEL_IN_PATH = Pattern.compile("/models/([^/:]+):");

    public RecordedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(json, "json");
        headers = lowerCaseCopy(Objects.requireNonNull(headers, "headers"));
        body = Objects.requireNonNull(body, "body").clone();
    }

    /** Builds a record whose {@code json} is parsed from {@code body}. */
    static RecordedRequest of(String method, String path, String query, Map<String, List<String>> headers, byte[] body) {
        return new RecordedRequest(method, path, query, headers, body, TestkitJson.parseOrMissing(body));
    }

    /** A copy of the body bytes. */
    @Override
    public byte[] body() {
        return body.clone();
    }

    /** The body decoded as UTF-8. */
    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The first value of a header, looked up case-insensitively. */
    public Optional<String> header(String name) {
        List<String> values = headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        return values.stream().findFirst();
    }

    /**
     * The upstream model this request addresses: the body's {@code model} string, or else the
     * {@code {model}} of a Gemini-style {@code /models/{model}:action} path; empty when neither exists.
     */
    public Optional<String> model() {
        JsonNode model = json.path("model");
        if (model.isTextual()) {
            return Optional.of(model.asText());
        }
        Matcher matcher = MODEL_IN_PATH.matcher(path);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    private static Map<String, List<String>> lowerCaseCopy(Map<String, List<String>> headers) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        headers.forEach((name, values) -> copy.merge(name.toLowerCase(Locale.ROOT), List.copyOf(values),
                (a, b) -> Stream.concat(a.stream(), b.stream()).toList()));
        return Collections.unmodifiableMap(copy);
    }

    // Records compare arrays by identity; a recorded request is a value, so compare the bytes.
    @Override
    public boolean equals(Object other) {
        return other instanceof RecordedRequest that
                && method.equals(that.method) && path.equals(that.path) && query.equals(that.query)
                && headers.equals(that.headers) && Arrays.equals(body, that.body) && json.equals(that.json);
    }

    @Override
    public int hashCode() {
        return Objects.hash(method, path, query, headers, Arrays.hashCode(body), json);
    }

    @Override
    public String toString() {
        String text = bodyText();
        String excerpt = text.length() > 200 ? text.substring(0, 200) + "..." : text;
        return "RecordedRequest[" + method + " " + path + (query.isEmpty() ? "" : "?" + query)
                + ", headers=" + headers + ", body=" + excerpt + "]";
    }
}
