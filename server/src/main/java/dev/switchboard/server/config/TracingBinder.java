package dev.switchboard.server.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Binds the {@code tracing:} section; every problem is reported with its place. */
final class TracingBinder {
    static final List<String> KEYS = List.of("otlp_endpoint", "service_name");
    private static final String ENDPOINT_EXAMPLE = "otlp_endpoint: http://127.0.0.1:4318/v1/traces";

    private TracingBinder() {
    }

    static TracingConfig tracing(YamlFields top) {
        Optional<YamlFields> f = top.map("tracing", "'tracing'", "tracing: {" + ENDPOINT_EXAMPLE + "}");
        if (f.isEmpty()) {
            return TracingConfig.OFF;
        }
        YamlFields t = f.get();
        t.allowOnly(KEYS);
        Optional<URI> endpoint = t.scalar("otlp_endpoint", ENDPOINT_EXAMPLE).filter(s -> !s.text().isBlank()).flatMap(s -> {
            String text = s.text().trim();
            try {
                URI uri = new URI(text);
                String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && uri.getUserInfo() == null) {
                    return Optional.of(uri);
                }
            } catch (URISyntaxException e) {
                // reported below
            }
            t.problems().add(s, t.label("otlp_endpoint") + " must be the http:// or https:// URL of an OTLP/HTTP traces "
                    + "endpoint without credentials, e.g. http://127.0.0.1:4318/v1/traces, got '" + text + "'");
            return Optional.empty();
        });
        String service = t.string("service_name", "service_name: switchboard").map(String::strip).filter(n -> !n.isEmpty())
                .orElse(TracingConfig.DEFAULT_SERVICE_NAME);
        return new TracingConfig(endpoint, service);
    }
}
