package dev.switchboard.wire.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.testing.CanonicalJson;
import dev.switchboard.wire.testing.FixtureCase;
import dev.switchboard.wire.testing.FixtureFormat;
import dev.switchboard.wire.testing.FixtureRunner;
import dev.switchboard.wire.testing.Golden;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The golden fixtures of the messages format ({@code fixtures/anthropic/}, run by {@link FixtureRunner}).
 * Besides the runner's chains: {@code upstream-betas.json} when a request needs betas, and the round trips
 * Anthropic clients depend on: signed thinking and redacted thinking reach the upstream exactly as the
 * client sent them; an upstream answer, streamed or not, reaches an Anthropic client with every field this
 * gateway carries unchanged, and a client stream is shaped the way the SDKs' accumulators need.
 */
public final class AnthropicFixtures implements FixtureFormat.Checks {
    static final String UPSTREAM_MODEL = "claude-upstream-model";
    static final int DEFAULT_MAX_TOKENS = 4096;

    /** The format as the fixture runner drives it. */
    public static final FixtureFormat FORMAT = new FixtureFormat("anthropic",
            (c, body) -> Anthropic.fromClient(body),
            Anthropic::errorBody,
            (c, request) -> Optional.of(Anthropic.toUpstream(request, UPSTREAM_MODEL, request.stream(), DEFAULT_MAX_TOKENS)),
            (c, body) -> Anthropic.fromUpstream(body),
            Anthropic::errorFromUpstream,
            c -> {
                AnthropicUpstreamStreamParser parser = new AnthropicUpstreamStreamParser();
                return FixtureFormat.StreamParser.of(parser::onEvent, parser::onEnd);
            },
            (c, response) -> Anthropic.toClient(response),
            c -> new AnthropicClientStreamWriter(),
            new AnthropicFixtures());

    private AnthropicFixtures() {
    }

    @Override
    public void checkRequest(FixtureCase c, Optional<JsonNode> client, ChatRequest canonical, Optional<JsonNode> upstream) {
        List<String> betas = Anthropic.requiredBetas(canonical);
        if (!betas.isEmpty() || c.has("upstream-betas.json")) {
            Golden.json(c.file("upstream-betas.json"), Json.MAPPER.valueToTree(betas));
        }
        if (client.isPresent()) {
            assertThat(reasoningBlocks(upstream.orElseThrow(), false))
                    .as("signed thinking and redacted thinking reach the upstream exactly as the client sent them")
                    .isEqualTo(reasoningBlocks(client.get(), true));
        }
    }

    /** Thinking and redacted thinking blocks of all messages, in order; {@code signedOnly} skips unsigned thinking. */
    private static List<String> reasoningBlocks(JsonNode body, boolean signedOnly) {
        List<String> out = new ArrayList<>();
        for (JsonNode message : body.path("messages")) {
            for (JsonNode block : message.path("content")) {
                String type = block.path("type").asText();
                if (type.equals("redacted_thinking")
                        || type.equals("thinking") && !(signedOnly && block.path("signature").asText().isEmpty())) {
                    // Compared as text: the values (signature above all) must be byte-identical.
                    out.add(type + "|" + block.path("thinking").asText(block.path("data").asText())
                            + "|" + block.path("signature").asText());
                }
            }
        }
        return out;
    }

    @Override
    public void checkResponse(FixtureCase c, Optional<JsonNode> upstream, ChatResponse canonical, JsonNode client) {
        upstream.ifPresent(u -> assertThat(CanonicalJson.pretty(carried(client)))
                .as("an upstream answer reaches the client unchanged")
                .isEqualTo(CanonicalJson.pretty(carried(u))));
    }

    @Override
    public void checkStream(FixtureCase c, Optional<String> upstream, List<StreamEvent> events, String client) {
        List<SseEvent> clientEvents = Golden.events(client);
        AnthropicSseMessages.assertWellFormed(clientEvents);
        upstream.ifPresent(u -> assertThat(CanonicalJson.pretty(carriedStream(AnthropicSseMessages.accumulate(clientEvents))))
                .as("an upstream stream reaches the client as the same message")
                .isEqualTo(CanonicalJson.pretty(carriedStream(AnthropicSseMessages.accumulate(Golden.events(u))))));
    }

    /** The fields of a message this gateway carries, with zero cache counts removed (the client omits them). */
    private static JsonNode carried(JsonNode message) {
        ObjectNode out = Json.object();
        for (String field : List.of("id", "type", "role", "model", "content", "stop_reason", "stop_sequence")) {
            out.set(field, message.path(field).deepCopy());
        }
        for (JsonNode block : out.withArray("content")) {
            ((ObjectNode) block).remove("citations");
        }
        out.set("usage", carriedUsage(message.path("usage")));
        return out;
    }

    private static JsonNode carriedUsage(JsonNode usage) {
        ObjectNode out = Json.object();
        for (String field : List.of("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")) {
            if (usage.path(field).asLong() > 0 || field.equals("input_tokens") || field.equals("output_tokens")) {
                out.put(field, usage.path(field).asLong());
            }
        }
        if (usage.path("cache_creation_input_tokens").asLong() > 0) {
            out.set("cache_creation", usage.path("cache_creation").deepCopy());
        }
        return out;
    }

    /** A streamed message's carried fields; an error is compared by its message (the envelopes differ on purpose). */
    private static JsonNode carriedStream(ObjectNode message) {
        ObjectNode out = (ObjectNode) carried(message);
        for (JsonNode block : out.withArray("content")) {
            if (block.path("type").asText().equals("tool_use") && block.path("input").isEmpty()) {
                ((ObjectNode) block).set("input", Json.object()); // no slices or an empty one: both mean {}
            }
        }
        if (message.has("error")) {
            out.put("error", message.at("/error/message").asText());
        }
        return out;
    }
}
