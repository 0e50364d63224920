package dev.switchboard.wire.anthropic;

/**
 * Tool-call ids as Anthropic accepts them ({@code ^[a-zA-Z0-9_-]+$}). Ids minted by other providers
 * ({@code functions.Bash:0}, Gemini's empty ids) would make Anthropic reject the whole history, so the
 * same function is applied to {@code tool_use.id} and {@code tool_result.tool_use_id}: the pair keeps
 * matching because the mapping is deterministic.
 */
final class AnthropicToolIds {
    /** What an empty id becomes; pairs with empty ids on both sides still match each other. */
    static final String EMPTY = "toolu_empty";

    private AnthropicToolIds() {
    }

    /** The id as it is, unless it is empty: a client must be able to send a tool_use's id back. */
    static String nonEmpty(String id) {
        return id.isEmpty() ? EMPTY : id;
    }

    static String sanitize(String id) {
        if (id.isEmpty()) {
            return EMPTY;
        }
        StringBuilder out = null;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-';
            if (!ok && out == null) {
                out = new StringBuilder(id.length()).append(id, 0, i);
            }
            if (out != null) {
                out.append(ok ? c : '_');
            }
        }
        return out == null ? id : out.toString();
    }
}
