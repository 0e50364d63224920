package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules the fake enforces like Anthropic, so gateway tests catch the translation mistakes peers made.
 * Bodies are written out in full on purpose: each case
 * should read like the request a broken translator would send.
 */
class AnthropicRulesTest extends FakeUpstreamSupport {
    private final AnthropicClient client = new AnthropicClient(upstream);

    private static final String TOOLS = "\"tools\":[{\"name\":\"f\",\"input_schema\":{\"type\":\"object\"}}]";
    private static final String CALL = "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}]}";

    private HttpResponse<String> post(String body) throws Exception {
        return client.send(json(body));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "max_tokens missing | {\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]} | max_tokens: Field required",
        "no messages | {\"model\":\"m\",\"max_tokens\":5,\"messages\":[]} | at least one message",
        "tool role | {\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"tool\",\"content\":\"q\"}]} | messages.0.role",
        "only a system entry | {\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"system\",\"content\":\"q\"}]} | at least one user or assistant message",
        "system entry with an image | {\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"system\",\"content\":[{\"type\":\"image\",\"source\":{}}]}]} | may hold only text blocks",
        "temperature above 1 | {\"model\":\"m\",\"max_tokens\":5,\"temperature\":1.5,\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]} | temperature",
        "empty text block | {\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"\"}]}]} | text content blocks must be non-empty",
        "prefill ending in whitespace | {\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":\"a \"}]} | trailing whitespace",
        "tool id with a dot and colon | {\"model\":\"m\",\"max_tokens\":5," + "\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"functions.f:0\",\"name\":\"f\",\"input\":{}}]},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"functions.f:0\",\"content\":\"r\"}]}]} | String should match pattern",
        "input as a string | {\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":\"{}\"}]},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"r\"}]}]} | valid dictionary",
        "thinking without signature | {\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"t\"},{\"type\":\"text\",\"text\":\"a\"}]},{\"role\":\"user\",\"content\":\"q2\"}]} | signature: Field required",
        "budget below 1024 | {\"model\":\"m\",\"max_tokens\":5000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":500},\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]} | greater than or equal to 1024",
        "budget not below max_tokens | {\"model\":\"m\",\"max_tokens\":2000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2000},\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]} | `max_tokens` must be greater than `thinking.budget_tokens`",
        "thinking with temperature | {\"model\":\"m\",\"max_tokens\":5000,\"temperature\":0.2,\"thinking\":{\"type\":\"adaptive\"},\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]} | `temperature` may only be set to 1",
        "thinking with top_k | {\"model\":\"m\",\"max_tokens\":5000,\"top_k\":5,\"thinking\":{\"type\":\"adaptive\"},\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]} | `top_k` must be unset",
        "thinking with forced tool | {\"model\":\"m\",\"max_tokens\":5000,\"tool_choice\":{\"type\":\"any\"},\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]} | Thinking may not be enabled when tool_choice forces tool use",
    })
    void refusedLikeAnthropicRefusesIt(String name, String body, String message) throws Exception {
        HttpResponse<String> response = post(body);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(json(response.body()).at("/error/message").asText()).contains(message);
    }

    @Test
    void everyToolUseNeedsAResultAtTheStartOfTheNextUserTurn() throws Exception {
        String missing = "{\"model\":\"m\",\"max_tokens\":5," + TOOLS + ",\"messages\":[{\"role\":\"user\",\"content\":\"q\"},"
                + CALL + ",{\"role\":\"user\",\"content\":\"no result\"}]}";
        String textFirst = "{\"model\":\"m\",\"max_tokens\":5," + TOOLS + ",\"messages\":[{\"role\":\"user\",\"content\":\"q\"},"
                + CALL + ",{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"here\"},"
                + "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"r\"}]}]}";
        String stray = "{\"model\":\"m\",\"max_tokens\":5," + TOOLS + ",\"messages\":[{\"role\":\"user\",\"content\":\"q\"},"
                + CALL + ",{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"r\"},"
                + "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_2\",\"content\":\"r\"}]}]}";
        String split = "{\"model\":\"m\",\"max_tokens\":5," + TOOLS + ",\"messages\":[{\"role\":\"user\",\"content\":\"q\"},"
                + CALL + ",{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"r\"}]},"
                + "{\"role\":\"user\",\"content\":\"and go on\"}]}";

        assertThat(json(post(missing).body()).at("/error/message").asText())
                .contains("`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1");
        assertThat(post(textFirst).statusCode()).isEqualTo(400);
        assertThat(json(post(stray).body()).at("/error/message").asText()).contains("unexpected `tool_use_id`");
        assertThat(post(split).statusCode()).as("consecutive user turns are merged, as the API does").isEqualTo(200);
    }

    @Test
    void atMostFourCacheBreakpoints() throws Exception {
        String block = "{\"type\":\"text\",\"text\":\"s\",\"cache_control\":{\"type\":\"ephemeral\"}}";
        String four = "{\"model\":\"m\",\"max_tokens\":5,\"system\":[" + block + "," + block + "," + block + "],"
                + "\"messages\":[{\"role\":\"user\",\"content\":[" + block + "]}]}";
        String five = four.replace("\"max_tokens\":5,", "\"max_tokens\":5,\"cache_control\":{\"type\":\"ephemeral\"},");

        assertThat(post(four).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = post(five);
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused.body()).at("/error/message").asText()).contains("A maximum of 4 blocks with cache_control");
    }

    @Test
    void serverToolsAndForeignSignaturesAreLeftAlone() throws Exception {
        String body = "{\"model\":\"m\",\"max_tokens\":5,\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"EqQBrecorded+/=\"},{\"type\":\"text\",\"text\":\"a\"}]},"
                + "{\"role\":\"user\",\"content\":\"q2\"}]}";

        HttpResponse<String> response = post(body);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body()).at("/content/0/type").asText()).as("a server tool is never called").isEqualTo("text");
    }
}
