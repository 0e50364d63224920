package dev.switchboard.wire;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one rule that keeps credentials out of text the gateway passes on or logs: provider keys as
 * providers quote them in error messages (OpenAI-style {@code sk-}, {@code rk-}, {@code pk-} keys, also
 * partly masked with {@code *}; Anthropic's {@code sk-ant-...}; Google's {@code AIza...}), {@code key_}
 * and {@code token-} style values, and bearer tokens. Each match becomes {@code [redacted]}. Every
 * format's upstream error reader applies it, and so does the engine to failure messages it logs or hands
 * to a caller. {@link #urlPasswords} does the same for the passwords in configured URLs.
 */
public final class Redaction {
    /** What {@link #secrets} replaces. */
    public static final Pattern SECRET = Pattern.compile("\\b(?:sk|rk|pk)-[A-Za-z0-9_*\\-]{6,}"
            + "|(?i:(?:sk|key|token)[-_][A-Za-z0-9_\\-]{6,}|bearer\\s+\\S+)"
            + "|AIza[0-9A-Za-z_\\-]{20,}");
    private static final Pattern QUERY_PASSWORD = Pattern.compile("(?i)([?&]password=)[^&#]*");

    private Redaction() {
    }

    /** {@code text} with every credential-like token replaced by {@code [redacted]}. */
    public static String secrets(String text) {
        return SECRET.matcher(text).replaceAll("[redacted]");
    }

    /**
     * A URL (a database or Redis address, or text holding one) safe to log or put in an error message: the
     * password of its user info becomes {@code ***} ({@code postgresql://user:pw@host/db} gives
     * {@code postgresql://user:***@host/db}); a Redis URL's user info without a colon is its password and is
     * hidden whole ({@code redis://token@host} gives {@code redis://***@host}), while another URL's is a user
     * name and stays; a {@code password=} query parameter (JDBC URLs carry it there) is hidden too. Text
     * without these is returned as it is.
     */
    public static String urlPasswords(String url) {
        int scheme = url.indexOf("://");
        String masked = url;
        if (scheme >= 0) {
            int authorityStart = scheme + 3;
            int authorityEnd = url.length();
            for (char c : new char[] {'/', '?', '#'}) {
                int i = url.indexOf(c, authorityStart);
                if (i >= 0 && i < authorityEnd) {
                    authorityEnd = i;
                }
            }
            int at = url.lastIndexOf('@', authorityEnd - 1);
            if (at >= authorityStart) {
                String userInfo = url.substring(authorityStart, at);
                int colon = userInfo.indexOf(':');
                // Redis reads user info without a colon as the password; a database URL, as the user name
                String schemeName = url.substring(0, scheme).toLowerCase(Locale.ROOT);
                boolean passwordOnly = colon < 0 && (schemeName.endsWith("redis") || schemeName.endsWith("rediss"));
                if (colon >= 0 || passwordOnly) {
                    String hidden = passwordOnly ? "***" : userInfo.substring(0, colon) + ":***";
                    masked = url.substring(0, authorityStart) + hidden + url.substring(at);
                }
            }
        }
        return QUERY_PASSWORD.matcher(masked).replaceAll("$1***");
    }
}
