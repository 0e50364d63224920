package dev.switchboard.wire.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
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
        assertThat(exec.description()).contains("placeholder description");
        assertThat(exec.freeform()).hasValueSatisfying(f -> assertThat(f.format()).hasValueSatisfying(g ->
                assertThat(g).isInstanceOfSatisfying(ToolSpec.Freeform.Format.Grammar.class, grammar -> {
                    assertThat(grammar.syntax()).isEqualTo("lark");
                    assertThat(grammar.definition()).isNotBlank();
                })));
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

        // Other upstreams see a function taking one string, told the grammar in its description.
        JsonNode chatTool = toolNamed(OpenAi.toUpstream(request, "up", true).path("tools"), "functions__exec").path("function");
        assertThat(chatTool.path("description").asText()).startsWith("placeholder description").contains("lark grammar");
        assertThat(chatTool.path("parameters").path("required")).containsExactly(Json.MAPPER.getNodeFactory().textNode("input"));
    }

    @Test
    void codexsCustomToolIsNativeAtAResponsesUpstreamAndItsCallReplaysAsCustomItems() {
        JsonNode body = body("codex");
        ChatRequest request = Responses.toCanonical(Responses.fromClient(body), List.of());
        JsonNode sent = body.path("input").get(0).path("tools").get(0).path("tools").get(0);

        ObjectNode upstream = Responses.toUpstream(request, "up", true, ResponsesUpstreamOptions.PLAIN);
        JsonNode exec = toolNamed(upstream.path("tools"), "functions__exec");
        assertThat(exec.path("type").asText()).isEqualTo("custom");
        assertThat(exec.path("description")).isEqualTo(sent.path("description"));
        assertThat(exec.path("format")).as("the grammar exactly as Codex sent it").isEqualTo(sent.path("format"));
        assertThat(exec.has("parameters")).isFalse();

        List<String> types = new ArrayList<>();
        upstream.path("input").forEach(i -> types.add(i.path("type").asText()));
        assertThat(types).contains("custom_tool_call", "custom_tool_call_output")
                .doesNotContain("function_call", "function_call_output");
        JsonNode call = upstream.path("input").get(types.indexOf("custom_tool_call"));
        assertThat(call.path("input").asText()).isEqualTo("text(\"switchboard-agent-exec-\" + (6 * 7))");
        assertThat(call.path("call_id").asText()).isEqualTo("call_2");
        assertThat(call.path("name").asText()).isEqualTo("functions__exec");
        assertThat(upstream.path("input").get(types.indexOf("custom_tool_call_output")).path("call_id").asText())
                .isEqualTo("call_2");
    }

    private static JsonNode toolNamed(JsonNode tools, String name) {
        for (JsonNode t : tools) {
            if (t.path("name").asText().equals(name) || t.path("function").path("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no tool " + name + " in " + tools);
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
