package dev.switchboard.server.auth;

import dev.switchboard.server.http.Exchange;
import java.util.Optional;

/** Reads one cookie from a request's {@code Cookie} header ({@code a=1; b=2}, RFC 6265 section 5.4). */
final class Cookies {
    private Cookies() {
    }

    /** The value of the first cookie named {@code name}, if the request carries one. */
    static Optional<String> value(Exchange ex, String name) {
        Optional<String> header = ex.header("cookie");
        if (header.isEmpty()) {
            return Optional.empty();
        }
        for (String pair : header.get().split(";")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).strip().equals(name)) {
                String v = pair.substring(eq + 1).strip();
                if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                    v = v.substring(1, v.length() - 1);
                }
                return v.isEmpty() ? Optional.empty() : Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
