package dev.switchboard.testkit.it.responses;

import static dev.switchboard.testkit.GatewayConfigSupport.SLOWER;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providerLine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.ObjectMappers;
import com.openai.core.http.StreamResponse;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseOutputMessage;
import com.openai.models.responses.ResponseStreamEvent;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.User;
import dev.switchboard.testkit.JsonSupport;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.ItSupport;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the Responses end-to-end tests share: the gateway config (one provider and a few models per
 * {@link UpstreamKind}, all fakes at the fake upstream), OpenAI SDK clients, the test tool, and readers
 * of SDK objects.
 */
final class ResponsesItSupport {
    static final String UPSTREAM_KEY = "sk-upstream-responses-0123456789";
    static final ObjectMapper JSON = new ObjectMapper();
    /** Model variants every kind has: plain, thinking, and (for fakes) cut mid-stream. */
    static final String THINK = "reasoning";
    static final String MIDFAIL = "midfail";
    /** The OpenAI fake reports half of such a prompt as read from its cache. */
    static final String CACHE = "cache";

    static final String CONFIG = config();

    private ResponsesItSupport() {
    }

    private static String config() {
        StringBuilder yaml = new StringBuilder(TestGateway.DEFAULT_HEADER).append("providers:\n");
        for (UpstreamKind k : UpstreamKind.values()) {
            yaml.append(k.providerYaml(UPSTREAM_KEY));
        }
        yaml.append(provider("p-scripted", "openai", "${UPSTREAM_OPENAI}", SLOWER, UPSTREAM_KEY)
                // its scripts answer whole JSON bodies: a provider that does not stream
                + providerLine("streaming: false")
                // it signs reasoning in reasoning_details and takes it back, as OpenRouter does
                + providerLine("flavour: openrouter"));
        yaml.append("models:\n");
        for (UpstreamKind k : UpstreamKind.values()) {
            yaml.append(k.modelYaml()).append(k.modelYaml(THINK));
            if (k.recorded()) {
                yaml.append(k.modelYaml(MIDFAIL));
            }
        }
        yaml.append(UpstreamKind.OPENAI.modelYaml(CACHE));
        yaml.append(model("resp-signed").limits(100000, 4096).supports("tools", "reasoning").pricing("{input: 1, output: 2}")
                .route("p-scripted/up-signed").yaml());
        return yaml.toString();
    }

    /** An SDK client with the test user's key: no retries (every failure is the gateway's), strict validation. */
    static OpenAIClient client(TestGateway gateway) {
        return client(gateway, gateway.apiKey());
    }

    static OpenAIClient client(TestGateway gateway, String apiKey) {
        return ItSupport.client(gateway, apiKey, Duration.ofSeconds(30));
    }

    /** A key of a second user, for ownership checks. */
    static String otherUsersKey(TestGateway gateway, String name) {
        User other = gateway.app().accounts().admin().createUser(new AdminService.CreateUser(Optional.of(name),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("10")));
        return gateway.app().accounts().admin().createKey(other.id(), AdminService.CreateKey.defaults()).secret();
    }

    /** {@code get_weather(city)}, the tool every tool test offers. */
    static FunctionTool weatherTool() {
        return FunctionTool.builder()
                .name("get_weather")
                .description("Current weather in a city")
                .parameters(FunctionTool.Parameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of("city")))
                        .build())
                .strict(false)
                .build();
    }

    static ResponseInputItem functionOutput(String callId, String output) {
        return ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                .callId(callId).output(output).build());
    }

    static ResponseInputItem userMessage(String text) {
        return ResponseInputItem.ofEasyInputMessage(com.openai.models.responses.EasyInputMessage.builder()
                .role(com.openai.models.responses.EasyInputMessage.Role.USER).content(text).build());
    }

    static ResponseCreateParams.Builder ask(String model, String text) {
        return ResponseCreateParams.builder().model(model).input(text);
    }

    /** The text of the response's message items, concatenated. */
    static String text(Response r) {
        return r.output().stream().flatMap(i -> i.message().stream())
                .flatMap(m -> m.content().stream())
                .flatMap(c -> c.outputText().stream())
                .map(t -> t.text())
                .collect(Collectors.joining());
    }

    static List<ResponseFunctionToolCall> calls(Response r) {
        return r.output().stream().flatMap(i -> i.functionCall().stream()).toList();
    }

    static List<ResponseOutputMessage> messages(Response r) {
        return r.output().stream().flatMap(i -> i.message().stream()).toList();
    }

    static List<ResponseOutputItem> reasoningItems(Response r) {
        return r.output().stream().filter(ResponseOutputItem::isReasoning).toList();
    }

    /** Every event of a streamed create, as the SDK parsed it, with its JSON as the SDK would send it back. */
    record Streamed(List<ResponseStreamEvent> events, List<JsonNode> json) {
        List<String> types() {
            return json.stream().map(j -> j.path("type").asText()).toList();
        }
    }

    static Streamed stream(OpenAIClient client, ResponseCreateParams params) {
        List<ResponseStreamEvent> events = new ArrayList<>();
        List<JsonNode> json = new ArrayList<>();
        try (StreamResponse<ResponseStreamEvent> s = client.responses().createStreaming(params)) {
            s.stream().forEach(e -> {
                events.add(e);
                json.add(tree(e));
            });
        }
        return new Streamed(events, json);
    }

    /** An SDK object as JSON, through the SDK's own mapper. */
    static JsonNode tree(Object sdkObject) {
        try {
            return JSON.readTree(ObjectMappers.jsonMapper().writeValueAsString(sdkObject));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String text) {
        return JsonSupport.json(text);
    }
}
