package dev.switchboard.server.config;

import java.util.Objects;
import java.util.Optional;

/**
 * Where the gateway listens. {@code host} is a name or an IP literal (IPv6 without brackets);
 * {@code port} is 0..65535, where 0 asks the system for a free port (useful in tests).
 */
public record ListenAddress(String host, int port) {
    public static final ListenAddress DEFAULT = new ListenAddress("127.0.0.1", 8080);

    public ListenAddress {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /**
     * Parses {@code host:port}, {@code [ipv6]:port}; empty when the text is not of that form. A host
     * is required: a bare {@code :8080} or {@code 8080} would hide the choice between loopback and all
     * interfaces, which is a security decision.
     */
    public static Optional<ListenAddress> parse(String text) {
        String t = text.trim();
        String host;
        String port;
        if (t.startsWith("[")) {
            int close = t.indexOf("]:");
            if (close < 0) {
                return Optional.empty();
            }
            host = t.substring(1, close);
            port = t.substring(close + 2);
        } else {
            int colon = t.lastIndexOf(':');
            if (colon < 0 || t.indexOf(':') != colon) {
                return Optional.empty();
            }
            host = t.substring(0, colon);
            port = t.substring(colon + 1);
        }
        if (host.isBlank() || !host.matches("[A-Za-z0-9._:%-]+") || !port.matches("\\d{1,5}")) {
            return Optional.empty();
        }
        int p = Integer.parseInt(port);
        return p > 65_535 ? Optional.empty() : Optional.of(new ListenAddress(host, p));
    }

    /** {@code host:port}, with brackets around an IPv6 host. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
