package dev.switchboard.server.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/** Browser origins as {@code cors.allowed_origins} takes them: {@code *}, or {@code scheme://host[:port]}. */
final class Origins {
    private Origins() {
    }

    /** The origin as browsers send it in {@code Origin} (lower case, no trailing slash), or empty when it is not one. */
    static Optional<String> normalize(String text) {
        String t = text.strip();
        if (t.equals("*")) {
            return Optional.of(t);
        }
        if (t.endsWith("/")) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            URI uri = new URI(t);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean bare = uri.getRawPath() == null || uri.getRawPath().isEmpty();
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !bare
                    || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
                return Optional.empty();
            }
            return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT)
                    + (uri.getPort() >= 0 ? ":" + uri.getPort() : ""));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
