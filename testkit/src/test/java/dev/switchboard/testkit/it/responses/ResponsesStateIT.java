package dev.switchboard.testkit.it.responses;

import static dev.switchboard.testkit.it.responses.ResponsesItSupport.ask;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.client;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.text;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.tree;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.weatherTool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseItem;
import com.openai.models.responses.inputitems.InputItemListParams;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.sse.SseParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the stored state promises whatever the provider: a response is its owner's alone, {@code store:
 * false} leaves nothing behind, a missing {@code previous_response_id} is a 400 naming the field,
 * deleting a turn keeps later turns continuable, input items page like OpenAI's, bad input is a 4xx
 * naming the field, keys are checked, and the raw event stream is framed as the format says.
 */
class ResponsesStateIT {
    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(ResponsesItSupport.CONFIG);

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static TestGateway gateway() {
        return GATEWAY.gateway();
    }

    /** The model of the first enabled kind: these promises do not depend on the provider. */
    private static String model() {
        return UpstreamKind.enabled().findFirst().orElseThrow().model();
    }

    private static OpenAIClient sdk() {
        return client(gateway());
    }

    /** The {@code error} object of the envelope, as the SDK keeps it. */
    private static JsonNode error(OpenAIServiceException e) {
        return e.body().convert(JsonNode.class);
    }

    @Test
    void aResponseIsItsOwnersAlone() {
        Response mine = sdk().responses().create(ask(model(), "Private.").build());
        OpenAIClient stranger = client(gateway(), ResponsesItSupport.otherUsersKey(gateway(), "stranger"));

        assertThatThrownBy(() -> stranger.responses().retrieve(mine.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> stranger.responses().inputItems().list(mine.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> stranger.responses().delete(mine.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> stranger.responses().create(ask(model(), "Continue theirs.").previousResponseId(mine.id())
                .build())).isInstanceOfSatisfying(BadRequestException.class,
                e -> assertThat(error(e).path("param").asText()).isEqualTo("previous_response_id"));

        assertThat(tree(sdk().responses().retrieve(mine.id()))).as("untouched").isEqualTo(tree(mine));
        OpenAIClient sameUserOtherKey = client(gateway(), gateway().newKey(List.of(), List.of()));
        assertThat(sameUserOtherKey.responses().retrieve(mine.id()).id()).as("owner is the user, not the key")
                .isEqualTo(mine.id());
    }

    @Test
    void storeFalseLeavesNothingToRetrieveOrContinue() {
        Response r = sdk().responses().create(ask(model(), "Forget me.").store(false).build());
        assertThat(r.id()).startsWith("resp_");
        assertThat(tree(r).path("store").asBoolean(true)).isFalse();
        assertThatThrownBy(() -> sdk().responses().retrieve(r.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> sdk().responses().create(ask(model(), "Next.").previousResponseId(r.id()).build()))
                .isInstanceOf(BadRequestException.class);
    }

    @Test
    void anUnknownPreviousResponseIsA400NamingTheField() {
        assertThatThrownBy(() -> sdk().responses().create(ask(model(), "Hi.").previousResponseId("resp_nope").build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(error(e).path("param").asText()).isEqualTo("previous_response_id");
                    assertThat(error(e).path("code").asText()).isEqualTo("400");
                    assertThat(error(e).path("message").asText()).contains("resp_nope");
                });
        assertThat(gateway().upstream().received()).as("nothing was sent upstream").isEmpty();
    }

    @Test
    void aCallLeftWithoutItsOutputIsA400() {
        Response first = sdk().responses().create(ask(model(), "Weather in Oslo?").addTool(weatherTool()).build());
        assertThatThrownBy(() -> sdk().responses().create(ask(model(), "Never mind.").previousResponseId(first.id())
                .addTool(weatherTool()).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(error(e).path("param").asText()).isEqualTo("input");
                    assertThat(error(e).path("message").asText()).contains("No tool output found");
                });
    }

    @Test
    void deletingAnEarlierTurnKeepsTheLaterOnesContinuable() {
        Response first = sdk().responses().create(ask(model(), "One.").build());
        Response second = sdk().responses().create(ask(model(), "Two.").previousResponseId(first.id()).build());

        sdk().responses().delete(first.id());
        assertThatThrownBy(() -> sdk().responses().retrieve(first.id())).isInstanceOf(NotFoundException.class);
        Response third = sdk().responses().create(ask(model(), "Three.").previousResponseId(second.id()).build());
        assertThat(text(third)).contains("You said: Three.");
        assertThat(sdk().responses().inputItems().list(third.id()).data()).hasSize(5);
    }

    @Test
    void inputItemsPageNewestFirstThroughTheSdksAutoPager() {
        Response first = sdk().responses().create(ask(model(), "q1").build());
        Response second = sdk().responses().create(ask(model(), "q2").previousResponseId(first.id()).build());
        Response third = sdk().responses().create(ask(model(), "q3").previousResponseId(second.id()).build());

        List<String> texts = new ArrayList<>();
        for (ResponseItem item : sdk().responses().inputItems().list(InputItemListParams.builder()
                .responseId(third.id()).limit(2).build()).autoPager()) {
            texts.add(tree(item).at("/content/0/text").asText());
        }
        assertThat(texts).containsExactly("q3", text(second), "q2", text(first), "q1");
    }

    @Test
    void cacheReadsOfTheUpstreamShowAsCachedTokens() {
        Response r = sdk().responses().create(ask(UpstreamKind.OPENAI.model(ResponsesItSupport.CACHE),
                "A prompt long enough to have a cached half.").build());
        var usage = r.usage().orElseThrow();
        assertThat(usage.inputTokensDetails().cachedTokens()).isPositive().isLessThanOrEqualTo(usage.inputTokens());
    }

    @Test
    void badInputIsA400NamingTheField() throws Exception {
        for (var c : Map.of(
                "{\"model\":\"m\",\"input\":\"x\",\"tools\":[{\"type\":\"web_search\"}]}", "tools[0].type",
                "{\"model\":\"m\",\"input\":[{\"type\":\"item_reference\",\"id\":\"msg_1\"}]}", "input[0].type",
                "{\"model\":\"m\",\"input\":\"x\",\"temperature\":9}", "temperature",
                "{\"input\":\"x\"}", "model").entrySet()) {
            HttpResponse<String> r = post(gateway().apiKey(), c.getKey());
            assertThat(r.statusCode()).as(c.getKey()).isEqualTo(400);
            assertThat(ResponsesItSupport.json(r.body()).at("/error/param").asText()).as(c.getKey()).isEqualTo(c.getValue());
        }
        HttpResponse<String> malformed = post(gateway().apiKey(), "{\"model\":");
        assertThat(malformed.statusCode()).isEqualTo(400);
        HttpResponse<String> unknownModel = post(gateway().apiKey(), "{\"model\":\"no-such-model\",\"input\":\"x\"}");
        assertThat(unknownModel.statusCode()).isEqualTo(404);
    }

    @Test
    void keysAreCheckedOnEveryRoute() throws Exception {
        assertThat(post("", "{\"model\":\"m\",\"input\":\"x\"}").statusCode()).isEqualTo(401);
        assertThat(send(HttpRequest.newBuilder(URI.create(gateway().openAiBaseUrl() + "/responses/resp_x")).GET())
                .statusCode()).isEqualTo(401);
        String chatOnly = gateway().newKey(List.of(), List.of("chat_completions"));
        HttpResponse<String> scoped = post(chatOnly, "{\"model\":\"" + model() + "\",\"input\":\"x\"}");
        assertThat(scoped.statusCode()).isEqualTo(403);
        assertThat(ResponsesItSupport.json(scoped.body()).at("/error/type").asText()).isEqualTo("insufficient_scope");
        String responsesOnly = gateway().newKey(List.of(), List.of("responses"));
        assertThat(post(responsesOnly, "{\"model\":\"" + model() + "\",\"input\":\"x\"}").statusCode()).isEqualTo(200);
    }

    @Test
    void theRawStreamNamesEveryEventAfterItsTypeAndHasNoDoneMarker() throws Exception {
        HttpResponse<String> r = post(gateway().apiKey(), "{\"model\":\"" + model() + "\",\"input\":\"Frames\",\"stream\":true}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        SseParser parser = new SseParser();
        List<SseEvent> events = new ArrayList<>(parser.feed(r.body()));
        events.addAll(parser.finish());
        assertThat(events).isNotEmpty().noneMatch(SseEvent::isDone);
        for (int i = 0; i < events.size(); i++) {
            JsonNode data = ResponsesItSupport.json(events.get(i).data());
            assertThat(events.get(i).event()).as("event %d", i).contains(data.path("type").asText());
            assertThat(data.path("sequence_number").asInt()).isEqualTo(i);
        }
        assertThat(ResponsesItSupport.json(events.getLast().data()).at("/response/usage/total_tokens").asInt()).isPositive();
    }

    private static HttpResponse<String> post(String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway().openAiBaseUrl() + "/responses"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!key.isEmpty()) {
            b.header("authorization", "Bearer " + key);
        }
        return send(b);
    }

    private static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

}
