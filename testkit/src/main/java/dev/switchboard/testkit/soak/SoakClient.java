package dev.switchboard.testkit.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Sends one soak request in one of the four formats, plain or streamed, and records what it saw; a client set
 * to abort leaves after the second stamped chunk. Nothing here judges: that is the oracle's job.
 */
final class SoakClient {
    static final String MODEL = "soak-a";
    static final String FALLBACK = "soak-b";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();
    private volatile String baseUrl;
    private final String apiKey;

    SoakClient(String baseUrl, String apiKey) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
    }

    Observation send(long n, ClientFormat format, boolean stream, boolean abort) {
        long start = System.nanoTime();
        String prompt = MoneyOracle.prompt(n);
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + format.path(MODEL, stream)))
                .timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json")
                .header("authorization", "Bearer " + apiKey)
                .header("x-goog-api-key", apiKey)
                .header("anthropic-version", "2023-06-01")
                .header("x-switchboard-fallbacks", FALLBACK)
                .POST(HttpRequest.BodyPublishers.ofString(format.body(MODEL, stream, prompt)))
                .build();
        HttpResponse<InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            return broken(n, "", format, stream, 0, "", "no response: " + e, start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return broken(n, "", format, stream, 0, "", "interrupted", start);
        }
        int status = response.statusCode();
        String rid = response.headers().firstValue("x-request-id").orElse("");
        try (InputStream in = response.body()) {
            if (status != 200) {
                byte[] body = in.readAllBytes();
                String problem;
                try {
                    problem = format.envelopeProblem(status, JSON.readTree(body));
                } catch (IOException e) {
                    problem = "an error body that is not JSON: " + new String(body, StandardCharsets.UTF_8);
                }
                return new Observation(n, rid, format, stream, Observation.Kind.REFUSED, status, "", false, false, problem, -1,
                        start, System.nanoTime(), 0);
            }
            if (!stream) {
                byte[] body = in.readAllBytes();
                JsonNode answer = JSON.readTree(body);
                return new Observation(n, rid, format, false, Observation.Kind.ANSWERED, 200, format.text(answer), false, true, "",
                        format.outputTokens(answer), start, System.nanoTime(), 0);
            }
            return readStream(n, rid, format, in, abort, start);
        } catch (IOException e) {
            return broken(n, rid, format, stream, status, "", "the answer broke off: " + e, start);
        }
    }

    private Observation readStream(long n, String rid, ClientFormat format, InputStream in, boolean abort, long start) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        StringBuilder text = new StringBuilder();
        StringBuilder data = new StringBuilder();
        String name = "";
        boolean error = false;
        boolean end = false;
        boolean afterEnd = false;
        long tokens = -1;
        String problem = "";
        String line;
        try {
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("data:")) {
                    data.append(data.isEmpty() ? "" : "\n").append(line.substring(5).strip());
                    continue;
                }
                if (line.startsWith("event:")) {
                    name = line.substring(6).strip();
                    continue;
                }
                if (!line.isEmpty() || data.isEmpty()) {
                    continue; // comments (heartbeats) and stray blank lines
                }
                String d = data.toString();
                data.setLength(0);
                JsonNode json = d.equals("[DONE]") ? JSON.nullNode() : JSON.readTree(d);
                ClientFormat.Event e = format.event(name, d, json);
                name = "";
                if (end && !afterEnd) {
                    afterEnd = !(format == ClientFormat.CHAT && d.equals("[DONE]"));
                    if (afterEnd) {
                        problem = "an event after the stream's end: " + d;
                    }
                }
                text.append(e.text());
                error |= e.error();
                end |= e.end();
                if (!json.isNull()) {
                    long t = format.outputTokens(json);
                    tokens = t >= 0 ? t : tokens;
                }
                if (abort && SoakUpstreams.stamps(text) >= 2) {
                    long abortedAt = System.nanoTime();
                    in.close();
                    return new Observation(n, rid, format, true, Observation.Kind.ABORTED, 200, text.toString(), error, false, "",
                            tokens, start, abortedAt, abortedAt);
                }
            }
        } catch (IOException e) {
            return broken(n, rid, format, true, 200, text.toString(), "the stream broke off: " + e, start);
        }
        return new Observation(n, rid, format, true, Observation.Kind.ANSWERED, 200, text.toString(), error, end, problem,
                tokens, start, System.nanoTime(), 0);
    }

    private static Observation broken(long n, String rid, ClientFormat format, boolean stream, int status, String text,
                                      String why, long start) {
        return new Observation(n, rid, format, stream, Observation.Kind.BROKEN, status, text, false, false, why, -1, start,
                System.nanoTime(), 0);
    }
}
