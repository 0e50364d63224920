package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Passthrough;
import dev.switchboard.wire.internal.GatewayFields;
import dev.switchboard.wire.internal.JsonFields;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a client's {@code generateContent} body (spec 2.9) into a {@link ChatRequest}. The model is the
 * one of the URL path; a {@code model} field in the body is ignored. {@code safetySettings} and
 * {@code cachedContent} are accepted and ignored, as the spec says (a cached-content name belongs to the
 * client's own Google project, which the gateway's keys cannot open). The gateway's own fields
 * ({@code models}, {@code fallbacks}, {@code transforms}, {@code skill}, {@code skills}, {@code ignore_defaults})
 * are read as in every format (Google's SDKs cannot send them; the edge also takes fallbacks from the
 * {@code x-switchboard-fallbacks} header). Other unknown fields are ignored.
 *
 * <p>What only a Gemini upstream understands travels in a {@code gemini} {@link Passthrough}:
 * {@code generationConfig} holds the untranslated generation settings, {@code tools} the non-function
 * tool entries; {@code GeminiUpstreamRequestWriter} merges them back.
 */
final class GeminiClientRequestReader {
    static final String EXTRA_GENERATION_CONFIG = "generationConfig";
    static final String EXTRA_TOOLS = "tools";

    private GeminiClientRequestReader() {
    }

    static ChatRequest read(String modelFromPath, JsonNode body, boolean stream) {
        if (modelFromPath.isBlank()) {
            throw JsonFields.invalid("model", "The model in the request path must not be empty.");
        }
        GeminiObjectReader root = new GeminiObjectReader(JsonFields.requireBody(body), "");
        GeminiGenerationConfigReader.Settings settings = GeminiGenerationConfigReader.read(root);
        GeminiClientToolsReader.Tools tools = GeminiClientToolsReader.read(root);
        Map<String, JsonNode> extras = new LinkedHashMap<>();
        if (!settings.extras().isEmpty()) {
            extras.put(EXTRA_GENERATION_CONFIG, settings.extras());
        }
        if (!tools.extras().isEmpty()) {
            extras.put(EXTRA_TOOLS, tools.extras());
        }
        return ChatRequest.builder(modelFromPath)
                .system(GeminiClientContentsReader.readSystem(root))
                .messages(GeminiClientContentsReader.read(root))
                .tools(tools.tools())
                .toolChoice(tools.choice())
                .sampling(settings.sampling())
                .maxTokens(settings.maxTokens())
                .stop(settings.stop())
                .responseFormat(settings.responseFormat())
                .reasoning(settings.reasoning())
                .logprobs(settings.logprobs())
                .stream(stream)
                .fallbackModels(GatewayFields.fallbacks((ObjectNode) body))
                .transforms(GatewayFields.transforms((ObjectNode) body))
                .skills(GatewayFields.skills((ObjectNode) body))
                .ignoreDefaults(GatewayFields.ignoreDefaults((ObjectNode) body))
                .passthrough(extras.isEmpty() ? Passthrough.NONE : new Passthrough(Gemini.FORMAT, extras))
                .build();
    }
}
