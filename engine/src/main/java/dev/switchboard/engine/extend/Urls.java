package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Links in catalog entries: absolute http(s) URLs with a host, at most {@value Limits#URL} characters, no user info. */
final class Urls {
    private Urls() {
    }

    static String check(String url, String field) {
        try {
            URI u = new URI(url);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("https") || scheme.equals("http")) && u.getHost() != null && u.getRawUserInfo() == null) {
                return url;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw GatewayError.invalid(field, field + ": expected an absolute http(s) URL such as https://example.com/, got '"
                + (url.length() > 80 ? url.substring(0, 80) + "..." : url) + "'").toException();
    }
}
