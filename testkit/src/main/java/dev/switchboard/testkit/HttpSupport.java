package dev.switchboard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * HTTP exchanges in tests for which not getting any answer is the test's failure, not a case to handle: the checked
 * exceptions of {@link HttpClient#send} are handled here once.
 */
public final class HttpSupport {
    private HttpSupport() {
    }

    /**
     * {@code client.send(request, handler)}. An I/O failure is thrown as {@link UncheckedIOException}; an interrupt
     * as {@link IllegalStateException}, the thread's interrupt flag set again.
     */
    public static <T> HttpResponse<T> send(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return client.send(request, handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
