package dev.switchboard.testkit.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
import java.util.List;
import java.util.Optional;

/**
 * What each agent's defaults must look like upstream, beyond what every run checks: the features the agent
 * relies on (system entries between turns, cache markers, thinking and signatures, custom and namespaced
 * tools) arrive in the upstream's own terms.
 */
final class AgentExpectations {
    private AgentExpectations() {
    }

    static void check(CodingAgent agent, AgentsIT.UpstreamKind kind, List<RecordingProxy.Exchange> sent,
                      List<RecordedRequest> chats) {
        switch (agent) {
            case CLAUDE_CODE -> claudeCode(kind, sent, chats);
            case CODEX -> codex(kind, chats);
            case GEMINI_CLI -> { } // its system prompt, tools and tool results are what every run checks
            case OPENCODE -> opencode(kind, sent, chats);
        }
    }

    /** Claude Code puts a system entry (with a cache marker) after the user's message and thinks adaptively. */
    private static void claudeCode(AgentsIT.UpstreamKind kind, List<RecordingProxy.Exchange> sent, List<RecordedRequest> chats) {
        JsonNode first = firstMessagesBody(sent).orElseThrow(() -> new AssertionError("Claude Code sent no /v1/messages request"));
        JsonNode entry = null;
        for (JsonNode m : first.path("messages")) {
            if (m.path("role").asText().equals("system")) {
                entry = m;
            }
        }
        assertThat(entry).as("Claude Code's system entry inside messages (the shape this suite exists for)").isNotNull();
        String entryText = UpstreamShape.text(entry.path("content")).strip();
        String probe = entryText.substring(0, Math.min(80, entryText.length()));
        UpstreamShape upstream = UpstreamShape.of(kind, chats.getFirst());
        switch (kind) {
            case ANTHROPIC -> {
                List<UpstreamShape.IndexedMessage> turns = upstream.systemTurns();
                assertThat(turns).as("the system entry relayed as a system message").hasSize(1);
                assertThat(turns.getFirst().index()).as("in its place").isPositive();
                JsonNode blocks = turns.getFirst().message().path("content");
                assertThat(UpstreamShape.text(blocks)).contains(probe);
                assertThat(blocks.get(blocks.size() - 1).has("cache_control")).as("its cache marker").isTrue();
                assertThat(upstream.body().path("thinking").path("type").asText()).as("adaptive thinking").isEqualTo("adaptive");
                assertThat(chats).as("a later turn replays the thinking block with its signature")
                        .anyMatch(AgentExpectations::replaysSignedThinking);
            }
            case OPENAI -> {
                List<UpstreamShape.IndexedMessage> turns = upstream.systemTurns();
                assertThat(turns).as("system prompt plus the system entry in its place").hasSizeGreaterThanOrEqualTo(2);
                UpstreamShape.IndexedMessage inPlace = turns.getLast();
                assertThat(inPlace.index()).as("after the user's message").isGreaterThan(1);
                assertThat(UpstreamShape.text(inPlace.message().path("content"))).contains(probe);
            }
            case GEMINI -> assertThat(upstream.systemText()).as("the system entry in the system instruction").contains(probe);
            case OPENAI_RESPONSES -> {
                List<UpstreamShape.IndexedMessage> turns = upstream.systemTurns();
                assertThat(turns).as("the system entry as a system item").hasSize(1);
                assertThat(turns.getFirst().index()).as("after the user's message").isPositive();
                assertThat(UpstreamShape.text(turns.getFirst().message().path("content"))).contains(probe);
                assertThat(upstream.body().path("instructions").asText()).as("the system prompt as instructions").isNotBlank();
            }
        }
    }

    private static boolean replaysSignedThinking(RecordedRequest r) {
        for (JsonNode m : r.json().path("messages")) {
            if (m.path("role").asText().equals("assistant")) {
                for (JsonNode b : m.path("content")) {
                    if (b.path("type").asText().equals("thinking") && !b.path("signature").asText("").isEmpty()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Codex's tools come in an additional_tools item, in namespaces, and its `exec` tool is a custom (grammar)
     * tool; over a Responses upstream its default model's encrypted reasoning goes back on the next turn.
     */
    private static void codex(AgentsIT.UpstreamKind kind, List<RecordedRequest> chats) {
        UpstreamShape upstream = UpstreamShape.of(kind, chats.getFirst());
        assertThat(upstream.toolNames()).as("namespaced tools flattened").contains("functions__exec", "functions__wait");
        if (kind == AgentsIT.UpstreamKind.OPENAI_RESPONSES) {
            JsonNode exec = upstream.toolNamed("functions__exec");
            assertThat(exec.path("type").asText()).as("the custom tool native at a Responses upstream").isEqualTo("custom");
            assertThat(exec.path("format").path("syntax").asText()).isEqualTo("lark");
            assertThat(exec.path("format").path("definition").asText()).isNotBlank();
        } else {
            JsonNode exec = upstream.toolParameters("functions__exec");
            assertThat(exec.path("properties").path("input").path("type").asText())
                    .as("the custom tool as a function of one string").isEqualTo("string");
            assertThat(exec.path("required").toString()).contains("input");
        }
        if (kind == AgentsIT.UpstreamKind.OPENAI_RESPONSES) {
            // the fake refuses encrypted content it did not issue, so reaching it unaltered is checked there too
            assertThat(chats).as("a later turn carries the model's encrypted reasoning back, through Codex")
                    .anyMatch(AgentExpectations::replaysEncryptedReasoning);
        }
    }

    private static boolean replaysEncryptedReasoning(RecordedRequest r) {
        for (JsonNode item : r.json().path("input")) {
            if (item.path("type").asText().equals("reasoning") && !item.path("encrypted_content").asText("").isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** opencode marks its system prompt and last messages for caching; an Anthropic upstream gets every marker. */
    private static void opencode(AgentsIT.UpstreamKind kind, List<RecordingProxy.Exchange> sent, List<RecordedRequest> chats) {
        if (kind != AgentsIT.UpstreamKind.ANTHROPIC) {
            return;
        }
        JsonNode first = firstMessagesBody(sent).orElseThrow();
        int markers = new UpstreamShape(kind, first).cacheMarkers();
        assertThat(markers).as("opencode's own cache markers").isPositive();
        assertThat(UpstreamShape.of(kind, chats.getFirst()).cacheMarkers()).as("cache markers upstream").isEqualTo(markers);
    }

    private static Optional<JsonNode> firstMessagesBody(List<RecordingProxy.Exchange> sent) {
        return sent.stream().filter(e -> e.pathAndQuery().startsWith("/v1/messages") && !e.pathAndQuery().contains("count_tokens"))
                .findFirst().map(e -> AgentsIT.json(e.bodyText()));
    }
}
