package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.FreeformTools;
import dev.switchboard.wire.internal.JsonSchemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders a canonical request as the body of {@code POST /v1/messages} toward an Anthropic-style
 * provider, fixing on the way what Anthropic rejects but other formats allow:
 *
 * <ul>
 *   <li>consecutive turns of one role are merged, and in a user turn the {@code tool_result} blocks come
 *       first; empty text blocks are dropped (Anthropic rejects them), and so is trailing whitespace
 *       at the end of a final assistant turn (a prefill may not end in whitespace);
 *   <li>tool ids are sanitised identically on both sides of a pair; arguments become an object;
 *   <li>thinking blocks go back unchanged with their Anthropic signatures, redacted thinking unchanged;
 *       thinking blocks without an Anthropic signature (another provider's trace) are dropped,
 *       because Anthropic rejects them;
 *   <li>thinking from the reasoning controls: a budget gives {@code enabled} with {@code budget_tokens}
 *       of at least 1024 and below {@code max_tokens} (when the caller's own {@code max_tokens} leaves no
 *       room for 1024, thinking is left off rather than exceeding the caller's limit); {@code ON} without
 *       a budget takes one from the effort; {@code AUTO} gives {@code adaptive}; {@code OFF}, or effort
 *       {@code none} alone, gives {@code disabled}; an effort goes to {@code output_config.effort}
 *       ({@code minimal} as {@code low});
 *   <li>with thinking on, {@code temperature} and {@code top_k} are left out, {@code top_p} is kept only
 *       from 0.95, and a forced {@code tool_choice} becomes {@code auto}; otherwise
 *       {@code temperature} is clamped to 0..1;
 *   <li>schemas in Google's upper-case type spelling are normalised ({@link JsonSchemas#standardTypes});
 *   <li>{@code max_tokens} is always sent: the request's value or the given default.
 * </ul>
 *
 * Passthrough fields of format {@code anthropic} are added last and never override what the canonical
 * request produced: objects are merged key by key ({@code thinking} and {@code output_config} only into a
 * block the request produced), arrays ({@code tools}: server tools, after the function tools) appended.
 */
final class AnthropicUpstreamRequestWriter {
    static final int MIN_THINKING_BUDGET = 1024;
    static final String EXTENDED_CACHE_TTL_BETA = "extended-cache-ttl-2025-04-11";

    private static final AnthropicBlockWriter BLOCKS = new AnthropicBlockWriter(AnthropicBlockWriter.Target.UPSTREAM);
    /** Passthrough objects that only refine a block this writer produced. */
    private static final Set<String> MERGE_ONLY = Set.of("thinking", "output_config");

    private AnthropicUpstreamRequestWriter() {
    }

    static ObjectNode write(ChatRequest r, String upstreamModel, boolean stream, int defaultMaxTokens) {
        ThinkingPlan plan = ThinkingPlan.of(r, defaultMaxTokens);
        ObjectNode body = Json.object().put("model", upstreamModel).put("max_tokens", plan.maxTokens());
        system(r.system()).ifPresent(s -> body.set("system", s));
        body.set("messages", messages(r.messages()));

        Map<String, JsonNode> passthrough = r.passthrough().forFormat(Anthropic.FORMAT);
        if (!r.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            r.tools().forEach(t -> tools.add(tool(t)));
        }
        if (!r.tools().isEmpty() || passthrough.containsKey("tools")) {
            toolChoice(r, plan.on()).ifPresent(tc -> body.set("tool_choice", tc));
        }
        plan.thinking().ifPresent(t -> body.set("thinking", t));
        ObjectNode output = Json.object();
        effort(r.reasoning()).ifPresent(e -> output.put("effort", e));
        if (r.responseFormat() instanceof ResponseFormat.JsonSchema schema) {
            output.putObject("format").put("type", "json_schema").set("schema", JsonSchemas.standardTypes(schema.schema()));
        } else if (r.responseFormat() instanceof ResponseFormat.JsonObject) {
            // Anthropic has no schema-less JSON mode; "a JSON object" is exactly the schema {"type": "object"}
            output.putObject("format").put("type", "json_schema").putObject("schema").put("type", "object");
        }
        if (!output.isEmpty()) {
            body.set("output_config", output);
        }
        sampling(r, plan.on(), body);
        if (!r.stop().isEmpty()) {
            ArrayNode stop = body.putArray("stop_sequences");
            r.stop().forEach(stop::add);
        }
        r.user().ifPresent(u -> body.putObject("metadata").put("user_id", u));
        if (stream) {
            body.put("stream", true);
        }
        passthrough.forEach((name, value) -> merge(body, name, value));
        return body;
    }

    /**
     * {@code anthropic-beta} values the request needs: the caller's own that Anthropic accepts
     * ({@link AnthropicBetas}), and the extended cache TTL when any 1h marker is used.
     */
    static List<String> requiredBetas(ChatRequest r) {
        Set<String> betas = new TreeSet<>(AnthropicBetas.accepted(r.betas()));
        if (usesOneHourCache(r)) {
            betas.add(EXTENDED_CACHE_TTL_BETA);
        }
        return List.copyOf(betas);
    }

    private static Optional<JsonNode> system(List<ContentBlock> system) {
        List<ContentBlock.Text> texts = new ArrayList<>();
        for (ContentBlock b : system) {
            if (b instanceof ContentBlock.Text t && !t.text().isEmpty()) {
                texts.add(t); // the system prompt takes text only
            }
        }
        if (texts.isEmpty()) {
            return Optional.empty();
        }
        if (texts.size() == 1 && texts.getFirst().cache().isEmpty()) {
            return Optional.of(Json.MAPPER.getNodeFactory().textNode(texts.getFirst().text()));
        }
        ArrayNode blocks = Json.array();
        texts.forEach(t -> BLOCKS.write(t).ifPresent(blocks::add));
        return Optional.of(blocks);
    }

    private record Turn(Role role, List<ObjectNode> blocks) {
    }

    private static ArrayNode messages(List<Message> messages) {
        List<Turn> turns = new ArrayList<>();
        for (Message m : messages) {
            List<ObjectNode> blocks = new ArrayList<>();
            for (ContentBlock b : m.content()) {
                if (b instanceof ContentBlock.Text t && t.text().isEmpty()) {
                    continue;
                }
                BLOCKS.write(b).ifPresent(blocks::add);
            }
            if (blocks.isEmpty()) {
                continue;
            }
            if (!turns.isEmpty() && turns.getLast().role() == m.role() && m.role() != Role.SYSTEM) {
                turns.getLast().blocks().addAll(blocks);
            } else {
                turns.add(new Turn(m.role(), blocks));
            }
        }
        if (!turns.isEmpty() && turns.getLast().role() == Role.ASSISTANT) {
            trimPrefill(turns.getLast().blocks());
            if (turns.getLast().blocks().isEmpty()) {
                turns.removeLast();
            }
        }
        ArrayNode out = Json.array();
        for (Turn turn : turns) {
            List<ObjectNode> blocks = turn.role() == Role.USER ? resultsFirst(turn.blocks()) : turn.blocks();
            ObjectNode message = out.addObject().put("role", switch (turn.role()) {
                case USER -> "user";
                case ASSISTANT -> "assistant";
                case SYSTEM -> "system"; // relayed in place, cache markers included
            });
            if (blocks.size() == 1 && isPlainText(blocks.getFirst())) {
                message.put("content", blocks.getFirst().get("text").textValue());
            } else {
                message.putArray("content").addAll(blocks);
            }
        }
        return out;
    }

    private static boolean isPlainText(ObjectNode block) {
        return block.path("type").asText().equals("text") && block.size() == 2;
    }

    private static List<ObjectNode> resultsFirst(List<ObjectNode> blocks) {
        List<ObjectNode> results = new ArrayList<>();
        List<ObjectNode> rest = new ArrayList<>();
        for (ObjectNode b : blocks) {
            (b.path("type").asText().equals("tool_result") ? results : rest).add(b);
        }
        results.addAll(rest);
        return results;
    }

    private static void trimPrefill(List<ObjectNode> blocks) {
        ObjectNode last = blocks.getLast();
        if (!last.path("type").asText().equals("text")) {
            return;
        }
        String trimmed = last.get("text").textValue().stripTrailing();
        if (trimmed.isEmpty()) {
            blocks.removeLast();
        } else {
            last.put("text", trimmed);
        }
    }

    private static ObjectNode tool(ToolSpec t) {
        ObjectNode out = Json.object().put("name", t.name());
        FreeformTools.functionDescription(t).ifPresent(d -> out.put("description", d));
        out.set("input_schema", JsonSchemas.standardTypes(t.parameters()));
        t.strict().ifPresent(s -> out.put("strict", s));
        AnthropicCacheControls.put(out, t.cache());
        // the tool's own fields of this format (defer_loading, input_examples...), never over a rendered one
        t.passthrough().forFormat(Anthropic.FORMAT).forEach((k, v) -> {
            if (!out.has(k)) {
                out.set(k, v.deepCopy());
            }
        });
        return out;
    }

    private static Optional<ObjectNode> toolChoice(ChatRequest r, boolean thinkingOn) {
        ToolChoice choice = r.toolChoice();
        if (thinkingOn && (choice instanceof ToolChoice.Required || choice instanceof ToolChoice.Named)) {
            choice = ToolChoice.AUTO; // Anthropic rejects forced tool use with thinking on
        }
        boolean serial = r.parallelToolCalls().equals(Optional.of(false));
        ObjectNode out = switch (choice) {
            case ToolChoice.Auto a -> serial ? Json.object().put("type", "auto") : null;
            case ToolChoice.None n -> Json.object().put("type", "none");
            case ToolChoice.Required q -> Json.object().put("type", "any");
            case ToolChoice.Named n -> Json.object().put("type", "tool").put("name", n.name());
        };
        if (out != null && serial && !(choice instanceof ToolChoice.None)) {
            out.put("disable_parallel_tool_use", true);
        }
        return Optional.ofNullable(out);
    }

    /** Only the caller's own effort: one implied by a budget would be a field the caller never sent. */
    private static Optional<String> effort(Reasoning r) {
        return r.ownEffort()
                .filter(e -> e != Reasoning.Effort.NONE)
                .map(e -> e == Reasoning.Effort.MINIMAL ? Reasoning.Effort.LOW : e)
                .map(Reasoning.Effort::wire);
    }

    private static void sampling(ChatRequest r, boolean thinkingOn, ObjectNode body) {
        if (!thinkingOn) {
            r.sampling().temperature().ifPresent(t -> body.put("temperature", Math.max(0.0, Math.min(1.0, t))));
        }
        r.sampling().topP().filter(p -> !thinkingOn || p >= 0.95).ifPresent(p -> body.put("top_p", p));
        if (!thinkingOn) {
            r.sampling().topK().ifPresent(k -> body.put("top_k", k));
        }
    }

    private static void merge(ObjectNode body, String name, JsonNode value) {
        JsonNode existing = body.get(name);
        if (existing == null) {
            if (!MERGE_ONLY.contains(name)) {
                body.set(name, value.deepCopy());
            }
        } else if (existing instanceof ObjectNode target && value.isObject()) {
            if (name.equals("thinking") && target.path("type").asText().equals("disabled")) {
                return; // display options make no sense on disabled thinking
            }
            for (Map.Entry<String, JsonNode> f : value.properties()) {
                if (!target.has(f.getKey())) {
                    target.set(f.getKey(), f.getValue().deepCopy());
                }
            }
        } else if (existing instanceof ArrayNode target && value.isArray()) {
            value.forEach(v -> target.add(v.deepCopy()));
        }
        // any other clash: the canonical request wins
    }

    private static boolean usesOneHourCache(ChatRequest r) {
        List<ContentBlock> blocks = new ArrayList<>(r.system());
        r.messages().forEach(m -> blocks.addAll(m.content()));
        for (int i = 0; i < blocks.size(); i++) {
            ContentBlock b = blocks.get(i);
            if (b instanceof ContentBlock.ToolResult tr) {
                blocks.addAll(tr.content());
            }
            if (b.cache().filter(c -> c.ttl() == CacheMarker.Ttl.ONE_HOUR).isPresent()
                    || b instanceof ContentBlock.Opaque o && o.format().equals(Anthropic.FORMAT) && hasOneHour(o.json())) {
                return true;
            }
        }
        if (r.tools().stream().anyMatch(t -> t.cache().filter(c -> c.ttl() == CacheMarker.Ttl.ONE_HOUR).isPresent())) {
            return true;
        }
        Map<String, JsonNode> passthrough = r.passthrough().forFormat(Anthropic.FORMAT);
        JsonNode topLevel = passthrough.get("cache_control"); // the newer request-wide marker
        return topLevel != null && "1h".equals(topLevel.path("ttl").asText(null))
                || passthrough.values().stream().anyMatch(AnthropicUpstreamRequestWriter::hasOneHour);
    }

    /** Whether raw JSON holds a {@code cache_control} with {@code ttl: "1h"} anywhere. */
    private static boolean hasOneHour(JsonNode json) {
        if (json.isObject()) {
            if ("1h".equals(json.path("cache_control").path("ttl").asText(null))) {
                return true;
            }
            for (JsonNode child : json) {
                if (hasOneHour(child)) {
                    return true;
                }
            }
        } else if (json.isArray()) {
            for (JsonNode child : json) {
                if (hasOneHour(child)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** What thinking to ask for and the {@code max_tokens} that makes it valid. */
    private record ThinkingPlan(Optional<ObjectNode> thinking, int maxTokens, boolean on) {

        static ThinkingPlan of(ChatRequest r, int defaultMaxTokens) {
            int max = r.maxTokens().orElse(defaultMaxTokens);
            Reasoning rs = r.reasoning();
            Optional<Reasoning.Mode> mode = rs.mode();
            boolean effortNone = rs.effort().filter(e -> e == Reasoning.Effort.NONE).isPresent();
            if (mode.filter(m -> m == Reasoning.Mode.OFF).isPresent()
                    || mode.isEmpty() && rs.budgetTokens().isEmpty() && effortNone) {
                return new ThinkingPlan(Optional.of(Json.object().put("type", "disabled")), max, false);
            }
            if (loopWithoutOwnThinking(r.messages())) {
                // Anthropic wants a tool loop's turn to begin with the thinking that led to its calls; a turn
                // another provider answered has none Anthropic can read, so this request goes without thinking.
                return new ThinkingPlan(Optional.empty(), max, false);
            }
            if (mode.filter(m -> m == Reasoning.Mode.AUTO).isPresent()) {
                return new ThinkingPlan(Optional.of(Json.object().put("type", "adaptive")), max, true);
            }
            if (mode.isEmpty() && rs.budgetTokens().isEmpty()) {
                return new ThinkingPlan(Optional.empty(), max, false);
            }
            int budget = Math.max(MIN_THINKING_BUDGET,
                    rs.budgetTokens().isPresent() ? rs.budgetTokens().getAsInt() : budgetFor(rs.effort()));
            if (r.maxTokens().isPresent()) {
                if (max <= MIN_THINKING_BUDGET) {
                    return new ThinkingPlan(Optional.empty(), max, false);
                }
                budget = Math.min(budget, max - 1);
            } else if (budget >= max) {
                max = budget + defaultMaxTokens; // the caller set no limit: make room for an answer
            }
            return new ThinkingPlan(
                    Optional.of(Json.object().put("type", "enabled").put("budget_tokens", budget)), max, true);
        }

        /**
         * Whether the conversation is inside a tool loop (the last turn answers the calls of the assistant turn
         * before it) whose assistant turn would not begin with thinking Anthropic signed: thinking from another
         * provider, or none, is not sent, and Anthropic refuses such a turn while thinking is on.
         */
        static boolean loopWithoutOwnThinking(List<Message> messages) {
            if (messages.size() < 2) {
                return false;
            }
            Message last = messages.getLast();
            Message assistant = messages.get(messages.size() - 2);
            boolean inLoop = last.role() == Role.USER && last.content().stream().anyMatch(b -> b instanceof ContentBlock.ToolResult)
                    && assistant.role() == Role.ASSISTANT
                    && assistant.content().stream().anyMatch(b -> b instanceof ContentBlock.ToolCall);
            if (!inLoop) {
                return false;
            }
            for (ContentBlock b : assistant.content()) {
                if (b instanceof ContentBlock.Thinking t && t.signature().filter(sig -> sig.isFrom(Anthropic.FORMAT)).isPresent()
                        || b instanceof ContentBlock.RedactedThinking rt && rt.origin().equals(Anthropic.FORMAT)) {
                    return false;
                }
                if (!(b instanceof ContentBlock.Thinking) && !(b instanceof ContentBlock.RedactedThinking)) {
                    return true; // the first block Anthropic would see is not its thinking
                }
            }
            return true;
        }

        /** A budget for "thinking on" without one, from the effort when there is one. */
        private static int budgetFor(Optional<Reasoning.Effort> effort) {
            return switch (effort.orElse(Reasoning.Effort.MEDIUM)) {
                case NONE, MINIMAL, LOW -> 1024;
                case MEDIUM -> 2048;
                case HIGH -> 4096;
                case XHIGH -> 8192;
                case MAX -> 16384;
            };
        }
    }
}
