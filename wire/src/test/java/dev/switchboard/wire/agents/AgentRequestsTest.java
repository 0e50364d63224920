package dev.switchboard.wire.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.openai.OpenAi;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesUpstreamOptions;
import dev.switchboard.wire.testing.Golden;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests as the coding agents send them, recorded by the agent suite (testkit {@code AgentsIT}) with their
 * prompt texts and tool descriptions replaced by placeholders ({@code fixtures/agents/}): each must be read
 * without a 400 and written for every upstream format with what the agent relies on kept.
 */
class AgentRequestsTest {

    private static JsonNode body(String agent) {
        return Golden.readJson(Golden.root().resolve("agents").resolve(agent + ".json")).path("body");
    }

    private static void writesForEveryUpstream(ChatRequest request) {
        assertThat(Anthropic.toUpstream(request, "up", true, 4096).path("messages")).isNotEmpty();
        assertThat(OpenAi.toUpstream(request, "up", true).path("messages")).isNotEmpty();
        assertThat(Gemini.toUpstream(request).path("contents")).isNotEmpty();
        assertThat(Responses.toUpstream(request, "up", true, ResponsesUpstreamOptions.PLAIN).path("input")).isNotEmpty();
    }

    private static int cacheMarkers(JsonNode node) {
        int n = node.has("cache_control") ? 1 : 0;
        for (JsonNode child : node) {
            n += cacheMarkers(child);
        }
        return n;
    }

    @Test
    void claudeCodeSystemEntryStaysInPlaceWithTheCacheMarkers() {
        JsonNode body = body("claude-code");
        ChatRequest request = Anthropic.fromClient(body);

        assertThat(request.messages().stream().map(Message::role)).contains(Role.SYSTEM);
        int at = request.messages().stream().map(Message::role).toList().indexOf(Role.SYSTEM);
        assertThat(at).as("after the user's first message").isPositive();
        writesForEveryUpstream(request);

        ObjectNode anthropic = Anthropic.toUpstream(request, "up", true, 4096);
        JsonNode entry = null;
        for (JsonNode m : anthropic.path("messages")) {
            entry = m.path("role").asText().equals("system") ? m : entry;
        }
        assertThat(entry).as("the system entry relayed as a system message").isNotNull();
        assertThat(anthropic.path("messages").get(0).path("role").asText()).isEqualTo("user");
        assertThat(entry.toString()).contains("placeholder");
        assertThat(cacheMarkers(anthropic)).as("every cache marker").isEqualTo(cacheMarkers(body)).isPositive();
        assertThat(anthropic.path("tools")).hasSameSizeAs(body.path("tools"));
        assertThat(anthropic.toString()).contains("\"type\":\"thinking\"").contains("fakesig.");

        ObjectNode openai = OpenAi.toUpstream(request, "up", true);
        List<String> roles = new ArrayList<>();
        openai.path("messages").forEach(m -> roles.add(m.path("role").asText()));
        assertThat(roles.subList(1, roles.size())).as("a system message after the first turn").contains("system");

        ObjectNode responses = Responses.toUpstream(request, "up", true, ResponsesUpstreamOptions.PLAIN);
        List<String> itemRoles = new ArrayList<>();
        responses.path("input").forEach(i -> itemRoles.add(i.path("role").asText()));
        assertThat(itemRoles.indexOf("system")).as("the system entry as a system item after the first turn").isPositive();
        assertThat(itemRoles.indexOf("system")).isEqualTo(itemRoles.lastIndexOf("system"));
        assertThat(responses.path("input").get(itemRoles.indexOf("system")).path("content").asText()).contains("placeholder");

        ObjectNode gemini = Gemini.toUpstream(request);
        assertThat(gemini.path("systemInstruction").path("parts").size()).isGreaterThan(body.path("system").size());
    }

    @Test
    void codexToolsFromAdditionalToolsAreFlattenedAndItsCustomCallReplays() {
        ChatRequest request = Responses.toCanonical(Responses.fromClient(body("codex")), List.of());

        List<String> names = request.tools().stream().map(ToolSpec::name).toList();
        assertThat(names).contains("functions__exec", "functions__wait");
        ToolSpec exec = request.tools().stream().filter(t -> t.name().equals("functions__exec")).findFirst().orElseThrow();
        assertThat(exec.parameters().path("properties").path("input").path("type").asText()).isEqualTo("string");
        assertThat(exec.description().orElse("")).contains("lark grammar");
        List<ContentBlock.ToolCall> calls = request.messages().stream().flatMap(m -> m.content().stream())
                .filter(ContentBlock.ToolCall.class::isInstance).map(ContentBlock.ToolCall.class::cast).toList();
        assertThat(calls).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("functions__exec");
            assertThat(c.argumentsJson()).contains("\"input\"");
        });
        assertThat(request.messages().stream().flatMap(m -> m.content().stream()))
                .anyMatch(ContentBlock.ToolResult.class::isInstance);
        assertThat(request.system()).as("Codex's developer messages").isNotEmpty();
        writesForEveryUpstream(request);
    }

    @Test
    void codexsHarmlessExtrasReachAResponsesUpstreamAndAreNamedWhereTheyCannotGo() {
        ChatRequest request = Responses.toCanonical(Responses.fromClient(body("codex")), List.of());

        JsonNode responses = Responses.toUpstream(request, "up", true, new ResponsesUpstreamOptions(true, true, true));
        assertThat(responses.at("/text/verbosity").asText()).isEqualTo("low");
        assertThat(responses.at("/reasoning/context").asText()).isEqualTo("all_turns");
        assertThat(responses.path("prompt_cache_key").asText()).isEqualTo("01a20a78-e658-77f2-8552-522a3471cb85");

        JsonNode chat = OpenAi.toUpstream(request, "up", true);
        assertThat(chat.path("prompt_cache_key").asText()).isEqualTo("01a20a78-e658-77f2-8552-522a3471cb85");
        assertThat(chat.has("verbosity") || chat.has("client_metadata") || chat.has("reasoning")).as(chat.toString()).isFalse();
        assertThat(OpenAi.notCarried(request, dev.switchboard.wire.openai.OpenAiUpstreamOptions.OPENAI))
                .contains("client_metadata", "reasoning.context", "verbosity");
        assertThat(Gemini.notCarried(request)).contains("client_metadata", "reasoning.context", "verbosity",
                "prompt_cache_key");
    }

    @Test
    void geminiCliRequestKeepsItsToolsAndTheirResults() {
        JsonNode body = body("gemini-cli");
        ChatRequest request = Gemini.fromClient("gemini-3.8-flash", body, true);

        int declarations = 0;
        for (JsonNode t : body.path("tools")) {
            declarations += t.path("functionDeclarations").size();
        }
        assertThat(request.tools()).hasSize(declarations);
        assertThat(request.messages().stream().flatMap(m -> m.content().stream()))
                .anyMatch(ContentBlock.ToolResult.class::isInstance);
        writesForEveryUpstream(request);
    }

    /**
     * opencode marks its system prompt and its last blocks. The marker it puts on a {@code tool_use} block is
     * not counted here: carrying that one is issue 10's "cache markers on every block" item, tested where it
     * is built.
     */
    @Test
    void opencodeCacheMarkersReachAnAnthropicUpstream() {
        JsonNode body = body("opencode");
        ChatRequest request = Anthropic.fromClient(body);

        int onToolUse = 0;
        for (JsonNode m : body.path("messages")) {
            for (JsonNode b : m.path("content")) {
                onToolUse += b.path("type").asText().equals("tool_use") && b.has("cache_control") ? 1 : 0;
            }
        }
        assertThat(cacheMarkers(Anthropic.toUpstream(request, "up", true, 4096)))
                .isGreaterThanOrEqualTo(cacheMarkers(body) - onToolUse).isPositive();
        writesForEveryUpstream(request);
    }
}
