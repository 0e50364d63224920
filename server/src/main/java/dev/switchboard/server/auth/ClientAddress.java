package dev.switchboard.server.auth;

import dev.switchboard.server.http.Exchange;

/**
 * The client's address for throttling: the connection's peer, or, when the operator says a proxy in front
 * writes it ({@code dashboard.trust_forwarded_for}), the last entry of {@code X-Forwarded-For} (the one that
 * proxy added; earlier entries are whatever the client claimed).
 */
final class ClientAddress {
    private final boolean trustForwardedFor;

    ClientAddress(boolean trustForwardedFor) {
        this.trustForwardedFor = trustForwardedFor;
    }

    String of(Exchange ex) {
        if (trustForwardedFor) {
            String forwarded = ex.header("x-forwarded-for").orElse("");
            int comma = forwarded.lastIndexOf(',');
            String last = forwarded.substring(comma + 1).strip();
            if (!last.isEmpty() && last.length() <= 64) {
                return last;
            }
        }
        return ex.remoteAddress();
    }
}
