package dev.switchboard.server.config;

/** Hides passwords in URLs before they reach a log line or an error message. */
final class UrlRedaction {
    private UrlRedaction() {
    }

    /** {@code postgresql://user:pw@host/db} becomes {@code postgresql://user:***@host/db}; other text is unchanged. */
    static String redactUrl(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        int authorityStart = scheme + 3;
        int authorityEnd = url.length();
        for (char c : new char[] {'/', '?', '#'}) {
            int i = url.indexOf(c, authorityStart);
            if (i >= 0 && i < authorityEnd) {
                authorityEnd = i;
            }
        }
        int at = url.lastIndexOf('@', authorityEnd - 1);
        if (at < authorityStart) {
            return url;
        }
        String userInfo = url.substring(authorityStart, at);
        int colon = userInfo.indexOf(':');
        String redacted = colon < 0 ? "***" : userInfo.substring(0, colon) + ":***";
        return url.substring(0, authorityStart) + redacted + url.substring(at);
    }
}
