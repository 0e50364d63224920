package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.SLOWER;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.GatewayConfigSupport.Model;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A reasoning model behind a Responses upstream keeps its reasoning between turns, whichever client format
 * carries the conversation: the first turn's encrypted reasoning reaches the client inside that format's
 * reasoning field, the client sends its history back as it was shown, and the second turn gives the
 * upstream its own encrypted reasoning back (checked on what the fake received, which also verifies it).
 * The rule when the next turn goes to another kind of provider: an Anthropic upstream gets the
 * conversation without that reasoning (it could not read it, and refuses what it did not sign).
 *
 * <p>Each conversation is an agent's tool round trip, where carried reasoning matters most: the model
 * reasons and calls a tool, the client answers with the tool's result.
 */
class EncryptedReasoningIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RESPONSES_UPSTREAM = "up-resp-think";
    private static final String CLAUDE_UPSTREAM = "up-claude-think";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(TestGateway.DEFAULT_HEADER
            + providers(
                    provider("p-resp", "openai-responses", "${UPSTREAM_OPENAI}", SLOWER, "sk-upstream-responses-0123456789"),
                    provider("p-claude", "anthropic", "${UPSTREAM}", SLOWER, "sk-ant-upstream-0123456789"))
            + models(
                    thinking("think-resp", "always").route("p-resp/" + RESPONSES_UPSTREAM),
                    thinking("think-claude", "hybrid").route("p-claude/" + CLAUDE_UPSTREAM)));

    /** A reasoning model with tools, of the reasoning {@code family} ({@code always}, {@code hybrid}). */
    private static Model thinking(String name, String family) {
        return model(name).limits(100000, 8192).supports("tools", "reasoning").pricing("{input: 1, output: 2}")
                .with("reasoning: {family: " + family + ", efforts: [low, medium, high]}");
    }

    private static TestGateway gateway() {
        return GATEWAY.gateway();
    }

    /** One client format: its first turn, and its second turn built from the first answer as the client got it. */
    enum ClientFormat {
        CHAT_COMPLETIONS {
            @Override
            JsonNode first(String model) {
                ObjectNode body = JSON.createObjectNode().put("model", model).put("reasoning_effort", "low");
                body.putArray("messages").addObject().put("role", "user").put("content", QUESTION);
                body.putArray("tools").addObject().put("type", "function").putObject("function").put("name", TOOL)
                        .set("parameters", parameters());
                return post("/v1/chat/completions", body, Map.of());
            }

            @Override
            JsonNode second(String model, JsonNode answer) {
                ObjectNode body = JSON.createObjectNode().put("model", model).put("reasoning_effort", "low");
                ArrayNode messages = body.putArray("messages");
                messages.addObject().put("role", "user").put("content", QUESTION);
                JsonNode assistant = answer.path("choices").path(0).path("message");
                messages.add(assistant);
                messages.addObject().put("role", "tool").put("tool_call_id", assistant.path("tool_calls").path(0).path("id")
                        .asText()).put("content", RESULT);
                body.putArray("tools").addObject().put("type", "function").putObject("function").put("name", TOOL)
                        .set("parameters", parameters());
                return post("/v1/chat/completions", body, Map.of());
            }
        },
        MESSAGES {
            @Override
            JsonNode first(String model) {
                return post("/v1/messages", messages(model, List.of(user(QUESTION))), MESSAGES_HEADERS);
            }

            @Override
            JsonNode second(String model, JsonNode answer) {
                String toolUseId = "";
                for (JsonNode block : answer.path("content")) {
                    if (block.path("type").asText().equals("tool_use")) {
                        toolUseId = block.path("id").asText();
                    }
                }
                ObjectNode assistant = JSON.createObjectNode().put("role", "assistant");
                assistant.set("content", answer.path("content"));
                ObjectNode result = JSON.createObjectNode().put("role", "user");
                result.putArray("content").addObject().put("type", "tool_result").put("tool_use_id", toolUseId)
                        .put("content", RESULT);
                return post("/v1/messages", messages(model, List.of(user(QUESTION), assistant, result)), MESSAGES_HEADERS);
            }

            private static ObjectNode user(String text) {
                return JSON.createObjectNode().put("role", "user").put("content", text);
            }

            private static ObjectNode messages(String model, List<ObjectNode> turns) {
                ObjectNode body = JSON.createObjectNode().put("model", model).put("max_tokens", 4096);
                body.putObject("thinking").put("type", "enabled").put("budget_tokens", 2048);
                turns.forEach(body.putArray("messages")::add);
                body.putArray("tools").addObject().put("name", TOOL).set("input_schema", parameters());
                return body;
            }
        },
        GENERATE_CONTENT {
            @Override
            JsonNode first(String model) {
                return post("/v1beta/models/" + model + ":generateContent", contents(List.of(user(QUESTION))), Map.of());
            }

            @Override
            JsonNode second(String model, JsonNode answer) {
                ObjectNode modelTurn = JSON.createObjectNode().put("role", "model");
                modelTurn.set("parts", answer.path("candidates").path(0).path("content").path("parts"));
                ObjectNode result = JSON.createObjectNode().put("role", "user");
                ObjectNode response = result.putArray("parts").addObject().putObject("functionResponse").put("name", TOOL);
                response.putObject("response").put("output", RESULT);
                return post("/v1beta/models/" + model + ":generateContent", contents(List.of(user(QUESTION), modelTurn, result)),
                        Map.of());
            }

            private static ObjectNode user(String text) {
                ObjectNode turn = JSON.createObjectNode().put("role", "user");
                turn.putArray("parts").addObject().put("text", text);
                return turn;
            }

            private static ObjectNode contents(List<ObjectNode> turns) {
                ObjectNode body = JSON.createObjectNode();
                turns.forEach(body.putArray("contents")::add);
                body.putObject("generationConfig").putObject("thinkingConfig").put("includeThoughts", true)
                        .put("thinkingBudget", 2048);
                body.putArray("tools").addObject().putArray("functionDeclarations").addObject().put("name", TOOL)
                        .set("parameters", parameters());
                return body;
            }
        },
        RESPONSES {
            @Override
            JsonNode first(String model) {
                ObjectNode body = request(model);
                body.putArray("input").addObject().put("role", "user").put("content", QUESTION);
                return post("/v1/responses", body, Map.of());
            }

            @Override
            JsonNode second(String model, JsonNode answer) {
                ObjectNode body = request(model);
                ArrayNode input = body.putArray("input");
                input.addObject().put("role", "user").put("content", QUESTION);
                String callId = "";
                for (JsonNode item : answer.path("output")) {
                    input.add(item);
                    if (item.path("type").asText().equals("function_call")) {
                        callId = item.path("call_id").asText();
                    }
                }
                input.addObject().put("type", "function_call_output").put("call_id", callId).put("output", RESULT);
                return post("/v1/responses", body, Map.of());
            }

            private static ObjectNode request(String model) {
                ObjectNode body = JSON.createObjectNode().put("model", model).put("store", false);
                body.putObject("reasoning").put("effort", "low").put("summary", "auto");
                body.putArray("include").add("reasoning.encrypted_content");
                body.putArray("tools").addObject().put("type", "function").put("name", TOOL).put("strict", false)
                        .set("parameters", parameters());
                return body;
            }
        };

        static final String QUESTION = "What is the weather in Oslo?";
        static final String TOOL = "get_weather";
        static final String RESULT = "4 degrees and clear";
        static final Map<String, String> MESSAGES_HEADERS = Map.of("anthropic-version", "2023-06-01");

        abstract JsonNode first(String model);

        abstract JsonNode second(String model, JsonNode answer);

        static ObjectNode parameters() {
            ObjectNode p = JSON.createObjectNode().put("type", "object");
            p.putObject("properties").putObject("city").put("type", "string");
            p.putArray("required").add("city");
            return p;
        }
    }

    private static JsonNode post(String path, JsonNode body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway().baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json")
                .header("authorization", "Bearer " + gateway().apiKey())
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        headers.forEach(request::header);
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("%s %s", path, r.body()).isEqualTo(200);
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode lastReceived(String upstreamModel) {
        List<RecordedRequest> got = gateway().upstream().received(upstreamModel);
        assertThat(got).as("requests for %s", upstreamModel).isNotEmpty();
        return got.getLast().json();
    }

    /** The encrypted reasoning the fake issued on the first turn: the reasoning item of its answer to that request. */
    private static List<String> encryptedSentBack(JsonNode request) {
        return request.path("input").findValues("encrypted_content").stream().map(JsonNode::asText).toList();
    }

    @ParameterizedTest
    @EnumSource(ClientFormat.class)
    void theSecondTurnGivesAResponsesUpstreamItsEncryptedReasoningBack(ClientFormat client) {
        JsonNode answer = client.first("think-resp");
        JsonNode firstRequest = lastReceived(RESPONSES_UPSTREAM);
        assertThat(firstRequest.path("include").toString()).contains("reasoning.encrypted_content");
        assertThat(firstRequest.path("store").asBoolean(true)).isFalse();

        client.second("think-resp", answer);
        JsonNode secondRequest = lastReceived(RESPONSES_UPSTREAM);
        List<String> echoed = encryptedSentBack(secondRequest);
        assertThat(echoed).as("the reasoning item of the first turn, sent back").singleElement()
                .satisfies(e -> assertThat(e).startsWith("fakeenc."));
        JsonNode items = secondRequest.path("input");
        assertThat(items).extracting(i -> i.path("type").asText())
                .containsExactly("message", "reasoning", "function_call", "function_call_output");
        assertThat(gateway().upstream().received(RESPONSES_UPSTREAM)).hasSize(2);
    }

    @ParameterizedTest
    @EnumSource(ClientFormat.class)
    void aMoveToAnAnthropicUpstreamDropsIt(ClientFormat client) {
        JsonNode answer = client.first("think-resp");

        client.second("think-claude", answer);
        JsonNode claudeRequest = lastReceived(CLAUDE_UPSTREAM);
        assertThat(claudeRequest.toString()).doesNotContain("fakeenc.").doesNotContain("c2Ix");
        assertThat(claudeRequest.path("messages").findValues("type")).extracting(JsonNode::asText)
                .doesNotContain("thinking", "redacted_thinking").contains("tool_use", "tool_result");
    }
}
