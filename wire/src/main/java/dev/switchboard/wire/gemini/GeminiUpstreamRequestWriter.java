package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.FreeformTools;
import java.util.Map;

/**
 * Renders a canonical request as a Google {@code generateContent} body (the model goes in the URL, see
 * {@link Gemini#path}).
 *
 * <ul>
 *   <li>{@code systemInstruction} from the system text; {@code contents} by {@link GeminiUpstreamContentsWriter}.</li>
 *   <li>Tools as {@code functionDeclarations} with {@code parametersJsonSchema}: plain JSON Schema, which
 *       avoids the 400s of keywords outside Google's OpenAPI subset, reduced to what Gemini takes
 *       ({@link GeminiJsonSchemas}: references resolved, constraints it cannot enforce moved into the
 *       description); {@code responseJsonSchema} the same way.</li>
 *   <li>{@code toolConfig.functionCallingConfig}: REQUIRED as ANY, a named tool as ANY with that one
 *       allowed name, NONE as NONE; AUTO is Google's default and not sent. There is no parallel-call
 *       switch in this API, so {@code parallelToolCalls} is not sent.</li>
 *   <li>{@code generationConfig}: sampling, {@code maxOutputTokens}, {@code stopSequences}, JSON output as
 *       {@code responseMimeType: application/json} plus {@code responseJsonSchema}, and
 *       {@code thinkingConfig} (see {@link #thinking}).</li>
 *   <li>Passthrough fields of format {@code gemini}: {@code generationConfig} fields are added to the
 *       generation config, {@code tools} entries appended to the tools, anything else set at the top
 *       level; none overrides what the canonical request says.</li>
 * </ul>
 */
final class GeminiUpstreamRequestWriter {
    private GeminiUpstreamRequestWriter() {
    }

    static ObjectNode write(ChatRequest request, GeminiUpstreamOptions options) {
        ObjectNode body = Json.object();
        ArrayNode system = Json.array();
        for (ContentBlock b : request.system()) {
            if (b instanceof ContentBlock.Text t && !t.text().isEmpty()) {
                system.addObject().put("text", t.text());
            }
        }
        // Gemini has no system turns: a system entry between turns joins the system instruction, in order.
        for (Message m : request.messages()) {
            if (m.role() == Role.SYSTEM && !m.text().isEmpty()) {
                system.addObject().put("text", m.text());
            }
        }
        if (!system.isEmpty()) {
            body.putObject("systemInstruction").set("parts", system);
        }
        ArrayNode contents = GeminiUpstreamContentsWriter.write(request.messages());
        if (contents.isEmpty()) {
            // Google answers 400 to `contents: []`; say so in the caller's terms instead of sending it.
            throw GatewayError.invalid("messages", "The conversation has no content a Gemini model can read: every "
                    + "message is empty or system-only. Send at least one user message with content.").toException();
        }
        body.set("contents", contents);
        tools(request, body);
        ObjectNode config = generationConfig(request, options);
        Map<String, JsonNode> extras = request.passthrough().forFormat(Gemini.FORMAT);
        extras.forEach((key, value) -> {
            switch (key) {
                case GeminiClientRequestReader.EXTRA_GENERATION_CONFIG -> value.properties().forEach(e -> {
                    if (!config.has(e.getKey())) {
                        config.set(e.getKey(), e.getValue().deepCopy());
                    }
                });
                case GeminiClientRequestReader.EXTRA_TOOLS -> {
                    ArrayNode tools = body.has("tools") ? (ArrayNode) body.get("tools") : body.putArray("tools");
                    value.forEach(t -> tools.add(t.deepCopy()));
                }
                default -> {
                    if (!body.has(key)) {
                        body.set(key, value.deepCopy());
                    }
                }
            }
        });
        if (!config.isEmpty()) {
            body.set("generationConfig", config);
        }
        return body;
    }

    private static void tools(ChatRequest request, ObjectNode body) {
        if (request.tools().isEmpty()) {
            return;
        }
        ArrayNode declarations = Json.array();
        for (ToolSpec t : request.tools()) {
            ObjectNode d = declarations.addObject();
            d.put("name", t.name());
            FreeformTools.functionDescription(t).ifPresent(desc -> d.put("description", desc));
            d.set("parametersJsonSchema", GeminiJsonSchemas.reduce(t.parameters()));
        }
        body.putArray("tools").addObject().set("functionDeclarations", declarations);
        ObjectNode fcc = Json.object();
        switch (request.toolChoice()) {
            case ToolChoice.Auto a -> { }
            case ToolChoice.None n -> fcc.put("mode", "NONE");
            case ToolChoice.Required r -> fcc.put("mode", "ANY");
            case ToolChoice.Named n -> {
                fcc.put("mode", "ANY");
                fcc.putArray("allowedFunctionNames").add(n.name());
            }
        }
        if (!fcc.isEmpty()) {
            body.putObject("toolConfig").set("functionCallingConfig", fcc);
        }
    }

    private static ObjectNode generationConfig(ChatRequest request, GeminiUpstreamOptions options) {
        ObjectNode g = Json.object();
        Sampling s = request.sampling();
        s.temperature().ifPresent(v -> g.put("temperature", v));
        s.topP().ifPresent(v -> g.put("topP", v));
        s.topK().ifPresent(v -> g.put("topK", v));
        s.presencePenalty().ifPresent(v -> g.put("presencePenalty", v));
        s.frequencyPenalty().ifPresent(v -> g.put("frequencyPenalty", v));
        s.seed().ifPresent(v -> g.put("seed", int32Seed(v)));
        request.maxTokens().ifPresent(v -> g.put("maxOutputTokens", v));
        if (!request.stop().isEmpty()) {
            ArrayNode stop = g.putArray("stopSequences");
            request.stop().forEach(stop::add);
        }
        switch (request.responseFormat()) {
            case ResponseFormat.Text t -> { }
            case ResponseFormat.JsonObject j -> g.put("responseMimeType", "application/json");
            case ResponseFormat.JsonSchema js -> {
                g.put("responseMimeType", "application/json");
                g.set("responseJsonSchema", GeminiJsonSchemas.reduce(js.schema()));
            }
        }
        ObjectNode thinking = thinking(request.reasoning(), options);
        if (!thinking.isEmpty()) {
            g.set("thinkingConfig", thinking);
        }
        request.logprobs().ifPresent(top -> {
            g.put("responseLogprobs", true);
            if (top > 0) {
                g.put("logprobs", top);
            }
        });
        return g;
    }

    /**
     * {@code thinkingConfig} from the reasoning controls. A token budget wins (spec 2.4); otherwise the
     * off switch is {@code thinkingBudget: 0}, an effort is a {@code thinkingLevel} or a budget (per
     * {@link GeminiUpstreamOptions.EffortMapping}), and on/auto without either is the dynamic budget -1.
     * {@code includeThoughts} is true whenever thinking was asked for and the trace is wanted (not off, not
     * {@code exclude}); signatures come back either way. Nothing is sent when no control was given.
     */
    static ObjectNode thinking(Reasoning r, GeminiUpstreamOptions options) {
        GeminiUpstreamOptions.EffortMapping mapping = options.effortMapping();
        ObjectNode t = Json.object();
        if (!r.requested()) {
            return t;
        }
        boolean off = r.mode().filter(m -> m == Reasoning.Mode.OFF).isPresent();
        if (r.budgetTokens().isPresent()) {
            t.put("thinkingBudget", options.clampBudget(r.budgetTokens().getAsInt()));
        } else if (off) {
            t.put("thinkingBudget", 0);
        } else if (r.effort().isPresent()) {
            Reasoning.Effort e = r.effort().get();
            // Gemini 3 cannot stop thinking (MINIMAL is the least), but a caller who asked for none wants no trace.
            off = e == Reasoning.Effort.NONE;
            if (mapping == GeminiUpstreamOptions.EffortMapping.THINKING_LEVEL) {
                t.put("thinkingLevel", level(e));
            } else {
                t.put("thinkingBudget", options.clampBudget(budget(e)));
            }
        } else {
            t.put("thinkingBudget", -1);
        }
        if (!off && !r.exclude()) {
            t.put("includeThoughts", true);
        }
        return t;
    }

    /**
     * Google declares {@code seed} an int32; OpenAI-style callers send any 64-bit integer. One outside the
     * range is folded into it ({@link Long#hashCode}): the same seed still gives the same value, so
     * reproducibility survives, which is what a seed is for.
     */
    static int int32Seed(long seed) {
        return seed >= Integer.MIN_VALUE && seed <= Integer.MAX_VALUE ? (int) seed : Long.hashCode(seed);
    }

    private static String level(Reasoning.Effort e) {
        return switch (e) {
            case NONE, MINIMAL -> "MINIMAL";
            case LOW -> "LOW";
            case MEDIUM -> "MEDIUM";
            case HIGH, XHIGH, MAX -> "HIGH";
        };
    }

    private static int budget(Reasoning.Effort e) {
        return switch (e) {
            case NONE -> 0;
            case MINIMAL -> 512;
            case LOW -> 2048;
            case MEDIUM -> 8192;
            case HIGH -> 16384;
            case XHIGH -> 24576;
            case MAX -> 32768;
        };
    }
}
