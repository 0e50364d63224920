package dev.switchboard.wire;

import java.util.regex.Pattern;

/**
 * The one rule that keeps credentials out of text the gateway passes on or logs: provider keys as
 * providers quote them in error messages (OpenAI-style {@code sk-}, {@code rk-}, {@code pk-} keys, also
 * partly masked with {@code *}; Anthropic's {@code sk-ant-...}; Google's {@code AIza...}), {@code key_}
 * and {@code token-} style values, and bearer tokens. Each match becomes {@code [redacted]}. Every
 * format's upstream error reader applies it, and so does the engine to failure messages it logs or hands
 * to a caller.
 */
public final class Redaction {
    /** What {@link #secrets} replaces. */
    public static final Pattern SECRET = Pattern.compile("\\b(?:sk|rk|pk)-[A-Za-z0-9_*\\-]{6,}"
            + "|(?i:(?:sk|key|token)[-_][A-Za-z0-9_\\-]{6,}|bearer\\s+\\S+)"
            + "|AIza[0-9A-Za-z_\\-]{20,}");

    private Redaction() {
    }

    /** {@code text} with every credential-like token replaced by {@code [redacted]}. */
    public static String secrets(String text) {
        return SECRET.matcher(text).replaceAll("[redacted]");
    }
}
