package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.HttpSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One client format, spoken over raw HTTP as a client of that format would: it builds the request for a
 * feature and reads the answer (whole, or the format's stream) into a neutral {@link Result}. The vendor
 * SDK tests live elsewhere; here nothing but the wire is trusted.
 */
abstract class ClientDriver {
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    private final String path;
    private final Function<String, Map<String, String>> headers;

    /**
     * A format whose requests go to {@code path} (unless {@link #path} says otherwise) with the headers
     * {@code headers} makes of the API key, which authenticate and describe the request.
     */
    ClientDriver(String path, Function<String, Map<String, String>> headers) {
        this.path = path;
        this.headers = headers;
    }

    /** What was sent and what came back. */
    record Exchange(String method, String path, String requestBody, Result result) {
    }

    /** The request body asking {@code model} for {@code feature}; empty when the format has no way to ask. */
    abstract Optional<ObjectNode> body(String model, Feature feature, boolean streamed);

    /** The path (with query) the request goes to: the one given at construction. */
    String path(String model, boolean streamed) {
        return path;
    }

    /** Reads a 200 whole answer, {@code root} its JSON (an empty object when {@code body} is not JSON). */
    abstract Result readWhole(int status, JsonNode root, String body);

    /** Reads a 200 answer in the format's stream. */
    abstract Result readStream(int status, String body);

    /** Whether the format has a finish reason of its own for an answer that calls tools. */
    boolean hasToolFinish() {
        return true;
    }

    final Exchange send(String gatewayBaseUrl, String apiKey, String model, Feature feature, boolean streamed) {
        ObjectNode body = body(model, feature, streamed)
                .orElseThrow(() -> new IllegalStateException(getClass().getSimpleName() + " cannot ask for " + feature));
        String path = path(model, streamed);
        String json = Fixtures.write(body);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gatewayBaseUrl + path))
                .timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        headers.apply(apiKey).forEach(request::header);
        HttpResponse<String> response = HttpSupport.send(HTTP, request.build(), HttpResponse.BodyHandlers.ofString());
        Result result = response.statusCode() != 200 ? failed(response.statusCode(), response.body())
                : streamed ? readStream(response.statusCode(), response.body())
                : readWhole(response.statusCode(), Fixtures.parse(response.body()).orElse(Fixtures.object()),
                        response.body());
        return new Exchange("POST", path, json, result);
    }

    static Result failed(int status, String body) {
        return new Result(status, "", java.util.List.of(), "", Result.Finish.MISSING, false,
                java.util.List.of("HTTP " + status), body);
    }
}
