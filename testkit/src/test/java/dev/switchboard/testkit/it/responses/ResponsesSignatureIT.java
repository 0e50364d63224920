package dev.switchboard.testkit.it.responses;

import static dev.switchboard.testkit.it.responses.ResponsesItSupport.ask;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.client;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.reasoningItems;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.text;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.tree;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseReasoningItem;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Provider signatures on reasoning survive a Responses conversation: an OpenAI-compatible upstream signs
 * its reasoning ({@code reasoning_details}), the Responses caller sees a reasoning item with an opaque
 * {@code encrypted_content}, and the next turn gives the upstream its signature back, whether the chain
 * is continued from storage ({@code previous_response_id}) or replayed by the caller with
 * {@code store: false}.
 */
class ResponsesSignatureIT {
    private static final String SIGNATURE = "sig-abc-123";
    private static final String TRACE = "I reasoned about it.";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(ResponsesItSupport.CONFIG);

    private static TestGateway gateway() {
        return GATEWAY.gateway();
    }

    @BeforeAll
    static void signingUpstream() {
        gateway().upstream().script("up-signed", (request, exchange) -> {
            ObjectNode body = ResponsesItSupport.JSON.createObjectNode();
            body.put("id", "chatcmpl-signed").put("object", "chat.completion").put("created", 1).put("model", "up-signed");
            ObjectNode message = body.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop")
                    .putObject("message");
            message.put("role", "assistant").put("content", "Signed answer.");
            message.putArray("reasoning_details").addObject().put("type", "reasoning.text").put("text", TRACE)
                    .put("signature", SIGNATURE).put("index", 0);
            body.putObject("usage").put("prompt_tokens", 5).put("completion_tokens", 3).put("total_tokens", 8);
            exchange.respondJson(200, body);
        });
    }

    /** The signatures the upstream got back in earlier assistant turns of its last request. */
    private static List<String> echoedSignatures() {
        List<RecordedRequest> got = gateway().upstream().received("up-signed");
        JsonNode messages = ResponsesItSupport.json(got.getLast().bodyText()).path("messages");
        return messages.findValues("signature").stream().map(JsonNode::asText).toList();
    }

    @Test
    void aStoredChainGivesTheUpstreamItsSignatureBack() {
        Response first = client(gateway()).responses().create(ask("resp-signed", "Think about it.").build());
        ResponseReasoningItem reasoning = reasoningItems(first).getFirst().asReasoning();
        assertThat(reasoning.summary()).extracting(s -> s.text()).containsExactly(TRACE);
        assertThat(reasoning.encryptedContent()).isPresent();
        assertThat(reasoning.encryptedContent().get()).doesNotContain(SIGNATURE);
        assertThat(text(first)).isEqualTo("Signed answer.");

        client(gateway()).responses().create(ask("resp-signed", "Once more.").previousResponseId(first.id()).build());
        assertThat(echoedSignatures()).containsExactly(SIGNATURE);
    }

    @Test
    void aCallerReplayingOutputItemsWithoutStorageKeepsTheSignatureToo() throws Exception {
        Response first = client(gateway()).responses().create(ask("resp-signed", "Think about it.").store(false).build());

        ObjectNode body = ResponsesItSupport.JSON.createObjectNode().put("model", "resp-signed").put("store", false);
        ArrayNode input = body.putArray("input");
        input.addObject().put("role", "user").put("content", "Think about it.");
        tree(first).path("output").forEach(input::add);
        input.addObject().put("role", "user").put("content", "Once more.");
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(gateway().openAiBaseUrl() + "/responses"))
                .header("authorization", "Bearer " + gateway().apiKey())
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(echoedSignatures()).containsExactly(SIGNATURE);
    }
}
