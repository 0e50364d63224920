package dev.switchboard.wire.anthropic;

import java.util.List;
import java.util.Set;

/**
 * The {@code anthropic-beta} values a messages-format client may send on to an Anthropic upstream. Anthropic
 * answers 400 to a value it does not know, so a client's values are forwarded only when they are on this
 * list: the betas of Anthropic's SDK (3.12) and those its documentation and Claude Code use. The fields they
 * unlock ({@code context_management}, {@code thinking.display}, a tool's {@code defer_loading}) travel with
 * them. Left out, and named by the gateway in a response header: values not listed, and those that would
 * change how the gateway itself is served ({@code oauth-*}: the gateway authenticates with the provider's
 * API key, never the caller's login). A provider's configured {@code anthropic-beta} header is always sent.
 */
public final class AnthropicBetas {
    static final Set<String> ACCEPTED = Set.of(
            "message-batches-2024-09-24", "prompt-caching-2024-07-31", "computer-use-2024-10-22", "computer-use-2025-01-24",
            "computer-use-2025-11-24", "pdfs-2024-09-25", "token-counting-2024-11-01", "token-efficient-tools-2025-02-19",
            "output-128k-2025-02-19", "output-300k-2026-03-24", "files-api-2025-04-14", "mcp-client-2025-04-04",
            "mcp-client-2025-11-20", "mcp-client-2026-09-15", "dev-full-thinking-2025-05-14", "interleaved-thinking-2025-05-14",
            "code-execution-2025-05-22", "extended-cache-ttl-2025-04-11", "context-1m-2025-08-07", "context-management-2025-06-27",
            "model-context-window-exceeded-2025-08-26", "skills-2025-10-02", "fine-grained-tool-streaming-2025-05-14",
            "search-results-2025-06-09", "web-fetch-2025-09-10", "web-search-2025-03-05", "structured-outputs-2025-11-13",
            "effort-2025-11-24", "advanced-tool-use-2025-11-20", "tool-search-tool-2025-10-19", "claude-code-20250219",
            "prompt-caching-scope-2026-01-05", "compact-2026-01-12", "compact-2026-09-04", "fast-mode-2026-02-01",
            "advisor-tool-2026-03-01", "task-budgets-2026-03-13", "thinking-token-count-2026-05-13", "cache-diagnosis-2026-04-07",
            "inline-tools-2026-09-15", "agent-memory-2026-07-22");

    private AnthropicBetas() {
    }

    /** The values of {@code requested} an Anthropic upstream accepts, in order. */
    public static List<String> accepted(List<String> requested) {
        return requested.stream().filter(ACCEPTED::contains).distinct().toList();
    }

    /** The values of {@code requested} that are not forwarded, in order. */
    public static List<String> notForwarded(List<String> requested) {
        return requested.stream().filter(b -> !ACCEPTED.contains(b)).distinct().toList();
    }
}
