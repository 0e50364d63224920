package dev.switchboard.testkit.it.extend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.testkit.HttpSupport;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A dashboard client as a browser is one: a real cookie jar (the JDK's {@link CookieManager}, which honours
 * {@code HttpOnly}, {@code Path}, {@code Max-Age}), and the CSRF token of the last sign-in, sent as
 * {@code x-csrf-token} on writes unless told not to.
 */
final class Browser {
    static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final CookieManager jar = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http;
    private Optional<String> csrf = Optional.empty();
    private boolean sendCsrf = true;

    Browser(String base) {
        this.base = base;
        this.http = HttpClient.newBuilder().cookieHandler(jar).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** A response as the tests read it. */
    record Answer(int status, String body, HttpResponse<byte[]> raw) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }

        Optional<String> header(String name) {
            return raw.headers().firstValue(name);
        }

        String errorType() {
            return json().path("error").path("type").asText();
        }

        String errorParam() {
            return json().path("error").path("param").asText();
        }
    }

    /** A browser signed in as {@code login} on the gateway at {@code base}; fails the test when the sign-in does not succeed. */
    static Browser signedIn(String base, String login, String password) {
        Browser b = new Browser(base);
        Answer a = b.login(login, password);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return b;
    }

    /** One admin API call of {@code gateway} with its admin key as the bearer, outside any session; no body when {@code json} is empty. */
    static Answer admin(TestGateway gateway, String method, String path, String json) {
        return new Browser(gateway.baseUrl()).send(method, path, json.isEmpty() ? Optional.empty() : Optional.of(json),
                Map.of("authorization", "Bearer " + gateway.adminKey()));
    }

    Answer login(String login, String password) {
        Answer a = post("/auth/login", "{\"login\":\"" + login + "\",\"password\":\"" + password + "\"}");
        if (a.status() == 200) {
            csrf = Optional.of(a.json().path("csrf_token").asText());
        }
        return a;
    }

    /** Sends no CSRF token from now on (a forged cross-site request carries the cookie but not the token). */
    Browser withoutCsrf() {
        sendCsrf = false;
        return this;
    }

    Browser withCsrf() {
        sendCsrf = true;
        return this;
    }

    List<HttpCookie> cookies() {
        return jar.getCookieStore().getCookies();
    }

    /** The raw value of the session cookie in the jar, if any. */
    Optional<String> sessionCookie() {
        return cookies().stream().filter(c -> c.getName().equals("sb_session")).map(HttpCookie::getValue).findFirst();
    }

    /** Puts a session cookie into the jar as if this browser had signed in itself (another instance, same host). */
    void adoptSession(String value, Optional<String> csrfToken) {
        HttpCookie c = new HttpCookie("sb_session", value);
        c.setPath("/");
        c.setVersion(0);
        jar.getCookieStore().add(URI.create(base), c);
        csrf = csrfToken;
    }

    Optional<String> csrf() {
        return csrf;
    }

    Answer get(String path) {
        return send("GET", path, Optional.empty(), Map.of());
    }

    Answer get(String path, Map<String, String> headers) {
        return send("GET", path, Optional.empty(), headers);
    }

    Answer post(String path, String json) {
        return send("POST", path, Optional.of(json), Map.of());
    }

    Answer post(String path) {
        return send("POST", path, Optional.empty(), Map.of());
    }

    Answer put(String path, String json) {
        return send("PUT", path, Optional.of(json), Map.of());
    }

    Answer patch(String path, String json) {
        return send("PATCH", path, Optional.of(json), Map.of());
    }

    Answer delete(String path) {
        return send("DELETE", path, Optional.empty(), Map.of());
    }

    Answer send(String method, String path, Optional<String> json, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        json.ifPresentOrElse(j -> {
            if (headers.keySet().stream().noneMatch("content-type"::equalsIgnoreCase)) {
                b.header("content-type", "application/json");
            }
            b.method(method, HttpRequest.BodyPublishers.ofString(j));
        }, () -> b.method(method, HttpRequest.BodyPublishers.noBody()));
        if (sendCsrf) {
            csrf.ifPresent(t -> b.header("x-csrf-token", t));
        }
        headers.forEach(b::header);
        HttpResponse<byte[]> r = HttpSupport.send(http, b.build(), HttpResponse.BodyHandlers.ofByteArray());
        return new Answer(r.statusCode(), new String(r.body(), StandardCharsets.UTF_8), r);
    }

    /** The status line of a GET sent byte for byte, for paths an HTTP client library would clean up first. */
    static String rawGetStatus(int port, String rawPath) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + rawPath + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString().strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
