package dev.switchboard.testkit.it.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testkit.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The matrix's judges of upstream requests must accept what the providers accept and name what they refuse. */
class UpstreamFormatTest {
    private static final String KEY = "k-0123456789";

    private static RecordedRequest request(String path, String query, Map<String, String> headers, String body) {
        Map<String, List<String>> all = new LinkedHashMap<>();
        all.put("content-type", List.of("application/json"));
        headers.forEach((k, v) -> all.put(k, List.of(v)));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return new RecordedRequest("POST", path, query, all, bytes, Fixtures.parse(body).orElseThrow());
    }

    private static List<String> openAi(String body) {
        return new OpenAiUpstream().problems(request("/v1/chat/completions", "", Map.of("authorization", "Bearer " + KEY),
                body), KEY);
    }

    private static List<String> anthropic(Map<String, String> headers, String body) {
        return new AnthropicUpstream().problems(request("/v1/messages", "", headers, body), KEY);
    }

    private static List<String> gemini(String path, String query, String body) {
        return new GeminiUpstream().problems(request(path, query, Map.of("x-goog-api-key", KEY), body), KEY);
    }

    private static List<String> responses(String body) {
        return new ResponsesUpstream().problems(request("/v1/responses", "", Map.of("authorization", "Bearer " + KEY), body),
                KEY);
    }

    @Test
    void responses() {
        assertThat(responses("""
                {"model":"m","store":false,"stream":true,"include":["reasoning.encrypted_content"],
                "reasoning":{"effort":"low","summary":"auto"},"max_output_tokens":16,
                "input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"q"},
                {"type":"input_image","image_url":"data:image/png;base64,AA","detail":"auto"}]},
                {"type":"reasoning","summary":[],"encrypted_content":"e"},
                {"type":"function_call","call_id":"c","name":"f","arguments":"{}"},
                {"type":"function_call_output","call_id":"c","output":"ok"},
                {"type":"custom_tool_call","call_id":"d","name":"g","input":"free text"},
                {"type":"custom_tool_call_output","call_id":"d","output":"ok"},
                {"type":"message","role":"assistant","content":"a"}],
                "tools":[{"type":"function","name":"f","parameters":{},"strict":false},
                {"type":"custom","name":"g","description":"d","format":{"type":"grammar","syntax":"lark","definition":"start: /.+/"}},
                {"type":"custom","name":"h","format":{"type":"text"}},{"type":"custom","name":"i"}],
                "text":{"format":{"type":"json_schema","name":"w","schema":{}}}}""")).isEmpty();
        assertThat(responses("""
                {"model":"m","stop":["x"],"input":[{"id":"msg_1","type":"message","role":"assistant",
                "content":[{"type":"input_text","text":"a"}]},{"type":"reasoning","summary":[]},
                {"type":"message","role":"user","content":[{"type":"input_image","image_url":{"url":"u"}}]}],
                "tools":[{"type":"function","function":{"name":"f"}}],"max_output_tokens":8}"""))
                .containsExactlyInAnyOrder("stop: unknown field (the provider rejects it)",
                        "store: must be false: the gateway keeps no state at the provider",
                        "input[0].id: must be absent: ids name stored items, and nothing is stored",
                        "input[0].content[0].type: must be one of [output_text, refusal]",
                        "input[1].encrypted_content: required: without storage a reasoning item is only its encrypted content",
                        "input[2].content[0].image_url: must be a string (not an object)",
                        "tools[0].name: must match ^[a-zA-Z0-9_-]{1,64}$, is ",
                        "tools[0]: tools are flat here (no nested `function`)",
                        "tools[0].parameters: must be an object",
                        "tools[0].strict: must be given: the format's default is true, which a non-strict schema fails",
                        "max_output_tokens: must be an integer of at least 16");
        assertThat(responses("""
                {"model":"m","store":false,"input":[{"type":"custom_tool_call","call_id":"d","name":"g","input":{}}],
                "tools":[{"type":"custom","name":"g","parameters":{},"format":{"type":"grammar","syntax":"ebnf"}},
                {"type":"custom","name":"h","format":{"type":"json"}}]}"""))
                .containsExactlyInAnyOrder("input[0].input: must be the free text as a string",
                        "tools[0].parameters: unknown field (the provider rejects it)",
                        "tools[0].format.syntax: must be one of [lark, regex]",
                        "tools[0].format.definition: must be a string",
                        "tools[1].format.type: must be text or grammar");
    }

    @Test
    void openAi() {
        assertThat(openAi("""
                {"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"q"},
                {"type":"image_url","image_url":{"url":"data:image/png;base64,AA"}}]}],"stream":true,
                "stream_options":{"include_usage":true},"reasoning_effort":"low",
                "response_format":{"type":"json_schema","json_schema":{"name":"w","schema":{}}}}""")).isEmpty();
        assertThat(openAi("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"}],\"thinking\":{}}"))
                .containsExactly("thinking: unknown field (the provider rejects it)");
        assertThat(openAi("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image\"}]}]}"))
                .containsExactly("messages[0].content[0].type: unknown part type \"image\"");
        assertThat(openAi("{\"model\":\"m\",\"messages\":[],\"stream_options\":{}}")).hasSize(2);
    }

    @Test
    void anthropic() {
        Map<String, String> headers = Map.of("x-api-key", KEY, "anthropic-version", "2023-06-01");
        assertThat(anthropic(headers, """
                {"model":"m","max_tokens":2048,"thinking":{"type":"enabled","budget_tokens":1024},
                "messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png",
                "data":"AA"}},{"type":"text","text":"q"}]}]}""")).isEmpty();
        assertThat(anthropic(Map.of("x-api-key", KEY), """
                {"model":"m","max_tokens":1024,"thinking":{"type":"enabled","budget_tokens":1024},
                "messages":[{"role":"assistant","content":"a"}],"response_format":{}}"""))
                .containsExactlyInAnyOrder("anthropic-version: missing", "messages[0].role: must be user",
                        "thinking.budget_tokens: must be below max_tokens",
                        "response_format: unknown field (the provider rejects it)");
        assertThat(anthropic(headers, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}"))
                .containsExactly("max_tokens: must be a positive integer");
    }

    @Test
    void gemini() {
        assertThat(gemini("/v1beta/models/g:streamGenerateContent", "alt=sse", """
                {"contents":[{"role":"user","parts":[{"text":"q"},{"inline_data":{"mime_type":"image/png","data":"AA"}}]}],
                "generation_config":{"response_mime_type":"application/json","thinking_config":{"include_thoughts":true}}}"""))
                .isEmpty();
        assertThat(gemini("/v1beta/models/g:streamGenerateContent", "", """
                {"model":"g","contents":[{"role":"assistant","parts":[{"text":"q","functionCall":{"name":"f"}}]}],
                "generationConfig":{"responseFormat":{},"thinkingConfig":{"thinkingBudget":1,"thinkingLevel":"LOW"}}}"""))
                .containsExactlyInAnyOrder("alt: a stream read as server-sent events needs ?alt=sse",
                        "model: unknown field (the provider rejects it)", "contents[0].role: must be user or model",
                        "contents[0].parts[0]: must hold exactly one data field, holds 2",
                        "generationConfig.responseFormat: unknown field (the provider rejects it)",
                        "generationConfig.thinkingConfig: thinkingBudget and thinkingLevel are mutually exclusive");
    }
}
