package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An Anthropic {@code POST /v1/messages} body read into a {@link Prompt}, plus what the Anthropic dialect
 * needs beyond it. The fake is a strict judge of the rules gateways get wrong, refusing with 400 and messages worded like Anthropic's:
 *
 * <ul>
 *   <li>{@code model}, {@code max_tokens} and a non-empty {@code messages} are required; roles are
 *       {@code user} and {@code assistant}; {@code temperature} is 0..1;
 *   <li>text must not be empty (except in a final assistant turn), and a final assistant turn must not end
 *       in whitespace;
 *   <li>{@code tool_use.id} must match {@code ^[a-zA-Z0-9_-]+$}; every {@code tool_use} must be answered by
 *       a {@code tool_result} at the start of the next user turn, and every {@code tool_result} must answer
 *       a {@code tool_use} of the turn before (consecutive turns of one role are merged first, as the API
 *       does);
 *   <li>echoed thinking blocks need a signature, and this fake's own signatures must verify against the
 *       text beside them ({@link FakeSignatures});
 *   <li>thinking {@code enabled} needs {@code budget_tokens} of at least 1024 and below {@code max_tokens};
 *       with thinking on, {@code temperature} may only be 1, {@code top_k} must be unset,
 *       {@code tool_choice} must not force a tool, and an assistant turn still in its tool loop (the final
 *       user turn answers its calls) must begin with a thinking block;
 *   <li>at most 4 {@code cache_control} breakpoints.
 * </ul>
 *
 * @param prompt           the dialect-neutral facts
 * @param stream           {@code stream: true}
 * @param thinking         thinking is {@code enabled} or {@code adaptive}
 * @param displayOmitted   {@code thinking.display: "omitted"}: thinking blocks come with empty text
 * @param lastIsAssistant  the conversation ends with an assistant turn (a prefill)
 * @param units            the prompt in cache order (tools, system, messages), one unit per block
 */
record AnthropicRequest(Prompt prompt, boolean stream, boolean thinking, boolean displayOmitted,
                        boolean lastIsAssistant, List<CacheUnit> units) {

    static final int MAX_BREAKPOINTS = 4;
    private static final Pattern TOOL_ID = Pattern.compile("^[a-zA-Z0-9_-]+$");

    AnthropicRequest {
        units = List.copyOf(units);
    }

    /**
     * One block of the prompt as the cache sees it: its text (without its {@code cache_control}) and the
     * TTL of the breakpoint it carries, if it carries one.
     */
    record CacheUnit(String text, Optional<String> breakpointTtl) {
    }

    /** A request the fake refuses with 400. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    private record Turn(String role, List<JsonNode> blocks, int firstIndex) {
    }

    static AnthropicRequest parse(JsonNode body) throws Invalid {
        if (!body.isObject()) {
            throw new Invalid("There was an error parsing the body of your request. Expected a JSON object.");
        }
        if (!body.path("model").isTextual() || body.path("model").asText().isEmpty()) {
            throw new Invalid("model: Field required");
        }
        if (!body.path("max_tokens").isIntegralNumber() || body.path("max_tokens").asLong() < 0) {
            throw new Invalid("max_tokens: Field required");
        }
        int maxTokens = body.path("max_tokens").asInt();
        JsonNode messages = body.path("messages");
        if (!messages.isArray() || messages.isEmpty()) {
            throw new Invalid("messages: at least one message is required");
        }
        JsonNode temperature = body.path("temperature");
        if (!temperature.isMissingNode() && !temperature.isNull()
                && (!temperature.isNumber() || temperature.asDouble() < 0 || temperature.asDouble() > 1)) {
            throw new Invalid("temperature: Input should be less than or equal to 1");
        }

        JsonNode thinking = body.path("thinking");
        String thinkingType = thinking.path("type").asText("");
        boolean thinkingOn = thinkingType.equals("enabled") || thinkingType.equals("adaptive");
        if (thinkingType.equals("enabled")) {
            JsonNode budget = thinking.path("budget_tokens");
            if (!budget.isIntegralNumber() || budget.asInt() < 1024) {
                throw new Invalid("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
            }
            if (budget.asInt() >= maxTokens) {
                throw new Invalid("`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our "
                        + "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size");
            }
        }
        JsonNode toolChoice = body.path("tool_choice");
        String choice = toolChoice.path("type").asText("auto");
        if (thinkingOn) {
            if (temperature.isNumber() && temperature.asDouble() != 1.0) {
                throw new Invalid("`temperature` may only be set to 1 when thinking is enabled. Please consult our "
                        + "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking");
            }
            if (!body.path("top_k").isMissingNode() && !body.path("top_k").isNull()) {
                throw new Invalid("`top_k` must be unset when thinking is enabled.");
            }
            if (choice.equals("any") || choice.equals("tool")) {
                throw new Invalid("Thinking may not be enabled when tool_choice forces tool use.");
            }
        }

        int[] breakpoints = {0};
        List<CacheUnit> units = new ArrayList<>();
        List<Prompt.ToolSpec> tools = tools(body.path("tools"), units, breakpoints);
        system(body.path("system"), units, breakpoints);
        List<Turn> turns = turns(messages);
        for (int t = 0; t < turns.size(); t++) {
            checkTurn(turns, t);
        }
        if (thinkingOn) {
            checkToolLoopStartsWithThinking(turns);
        }
        for (JsonNode message : messages) {
            messageUnits(message, units, breakpoints);
        }
        if (body.path("cache_control").isObject()) {
            // The request-wide marker puts a breakpoint on the last block.
            breakpoints[0]++;
            CacheUnit last = units.removeLast();
            units.add(new CacheUnit(last.text(), Optional.of(ttl(body.path("cache_control")))));
        }
        if (breakpoints[0] > MAX_BREAKPOINTS) {
            throw new Invalid("A maximum of " + MAX_BREAKPOINTS + " blocks with cache_control may be provided. Found "
                    + breakpoints[0] + ".");
        }

        JsonNode last = messages.get(messages.size() - 1);
        boolean lastIsAssistant = last.path("role").asText().equals("assistant");
        Prompt prompt = new Prompt(
                body.path("model").asText(),
                lastUserText(messages),
                toolResult(last),
                choice.equals("none") ? List.of() : tools,
                choice.equals("tool") ? Optional.of(toolChoice.path("name").asText()) : Optional.empty(),
                Optional.of(maxTokens),
                stops(body.path("stop_sequences")),
                units.stream().mapToInt(u -> u.text().length()).sum(),
                thinkingOn);
        return new AnthropicRequest(prompt, body.path("stream").asBoolean(false), thinkingOn,
                thinking.path("display").asText("").equals("omitted"), lastIsAssistant, units);
    }

    private static List<Prompt.ToolSpec> tools(JsonNode tools, List<CacheUnit> units, int[] breakpoints) throws Invalid {
        List<Prompt.ToolSpec> specs = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            units.add(unit("tool:", tool, breakpoints));
            String type = tool.path("type").asText("custom");
            if (!type.equals("custom")) {
                continue; // a server tool: the fake never calls it
            }
            if (!tool.path("name").isTextual()) {
                throw new Invalid("tools." + i + ".custom.name: Field required");
            }
            if (!tool.path("input_schema").isObject()) {
                throw new Invalid("tools." + i + ".custom.input_schema: Field required");
            }
            specs.add(new Prompt.ToolSpec(tool.path("name").asText(), tool.path("input_schema")));
        }
        return specs;
    }

    private static void system(JsonNode system, List<CacheUnit> units, int[] breakpoints) {
        if (system.isTextual()) {
            units.add(new CacheUnit("system:" + system.asText(), Optional.empty()));
        }
        for (JsonNode block : system.isArray() ? system : List.<JsonNode>of()) {
            units.add(unit("system:", block, breakpoints));
        }
    }

    private static void messageUnits(JsonNode message, List<CacheUnit> units, int[] breakpoints) {
        String role = message.path("role").asText() + ":";
        JsonNode content = message.path("content");
        if (content.isTextual()) {
            units.add(new CacheUnit(role + content.asText(), Optional.empty()));
            return;
        }
        for (JsonNode block : content) {
            CacheUnit unit = unit(role, block, breakpoints);
            // A breakpoint inside a tool result marks the result's block.
            for (JsonNode inner : block.path("content").isArray() ? block.path("content") : List.<JsonNode>of()) {
                if (inner.path("cache_control").isObject()) {
                    breakpoints[0]++;
                    unit = new CacheUnit(unit.text(), Optional.of(ttl(inner.path("cache_control"))));
                }
            }
            units.add(unit);
        }
    }

    private static CacheUnit unit(String prefix, JsonNode block, int[] breakpoints) {
        Optional<String> ttl = Optional.empty();
        String text;
        if (block.path("cache_control").isObject()) {
            breakpoints[0]++;
            ttl = Optional.of(ttl(block.path("cache_control")));
        }
        if (block.path("type").asText().equals("text")) {
            text = block.path("text").asText();
        } else {
            ObjectNode copy = block.deepCopy();
            copy.remove("cache_control");
            text = TestkitJson.text(copy);
        }
        return new CacheUnit(prefix + text, ttl);
    }

    private static String ttl(JsonNode cacheControl) {
        return cacheControl.path("ttl").asText("5m");
    }

    /** Consecutive messages of one role, merged as the API merges them before it checks tool pairing. */
    private static List<Turn> turns(JsonNode messages) throws Invalid {
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            if (!role.equals("user") && !role.equals("assistant")) {
                throw new Invalid("messages." + i + ".role: Input should be 'user' or 'assistant'");
            }
            JsonNode content = message.path("content");
            List<JsonNode> blocks = new ArrayList<>();
            boolean finalAssistant = i == messages.size() - 1 && role.equals("assistant");
            if (content.isTextual()) {
                if (content.asText().isEmpty() && !finalAssistant) {
                    throw new Invalid("messages." + i + ": all messages must have non-empty content except for the "
                            + "optional final assistant message");
                }
                blocks.add(TestkitJson.object().put("type", "text").put("text", content.asText()));
            } else if (content.isArray()) {
                content.forEach(blocks::add);
            } else {
                throw new Invalid("messages." + i + ".content: Field required");
            }
            for (int j = 0; j < blocks.size(); j++) {
                checkBlock(blocks.get(j), "messages." + i + ".content." + j, finalAssistant);
            }
            if (finalAssistant && !blocks.isEmpty()) {
                JsonNode lastBlock = blocks.getLast();
                String text = lastBlock.path("text").asText("");
                if (lastBlock.path("type").asText().equals("text") && !text.equals(text.stripTrailing())) {
                    throw new Invalid("messages: final assistant content cannot end with trailing whitespace");
                }
            }
            if (!turns.isEmpty() && turns.getLast().role().equals(role)) {
                turns.getLast().blocks().addAll(blocks);
            } else {
                turns.add(new Turn(role, blocks, i));
            }
        }
        return turns;
    }

    private static void checkBlock(JsonNode block, String path, boolean finalAssistant) throws Invalid {
        switch (block.path("type").asText("")) {
            case "text" -> {
                if (block.path("text").asText("").isEmpty() && !finalAssistant) {
                    throw new Invalid("messages: text content blocks must be non-empty");
                }
            }
            case "tool_use" -> {
                if (!TOOL_ID.matcher(block.path("id").asText("")).matches()) {
                    throw new Invalid(path + ".tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'");
                }
                if (!block.path("input").isObject()) {
                    throw new Invalid(path + ".tool_use.input: Input should be a valid dictionary");
                }
            }
            case "tool_result" -> {
                if (!TOOL_ID.matcher(block.path("tool_use_id").asText("")).matches()) {
                    throw new Invalid(path + ".tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'");
                }
            }
            case "thinking" -> {
                Optional<String> problem = FakeSignatures.problem(block.path("thinking").asText(""),
                        block.path("signature").asText(""));
                if (problem.isPresent()) {
                    throw new Invalid(path + ".thinking." + problem.get());
                }
            }
            case "redacted_thinking" -> {
                if (block.path("data").asText("").isEmpty()) {
                    throw new Invalid(path + ".redacted_thinking.data: Field required");
                }
            }
            case "" -> throw new Invalid(path + ".type: Field required");
            default -> { }
        }
    }

    /**
     * With thinking on, an assistant turn that is still in its tool loop (the last turn answers its calls)
     * must begin with the thinking that led to the calls, as it was returned.
     */
    private static void checkToolLoopStartsWithThinking(List<Turn> turns) throws Invalid {
        if (turns.size() < 2) {
            return;
        }
        Turn last = turns.getLast();
        Turn assistant = turns.get(turns.size() - 2);
        boolean inLoop = last.role().equals("user") && !last.blocks().isEmpty()
                && last.blocks().getFirst().path("type").asText().equals("tool_result")
                && assistant.role().equals("assistant")
                && assistant.blocks().stream().anyMatch(b -> b.path("type").asText().equals("tool_use"));
        if (!inLoop) {
            return;
        }
        String first = assistant.blocks().isEmpty() ? "" : assistant.blocks().getFirst().path("type").asText();
        if (!first.equals("thinking") && !first.equals("redacted_thinking")) {
            throw new Invalid("messages." + assistant.firstIndex() + ".content.0.type: Expected `thinking` or "
                    + "`redacted_thinking`, but found `" + first + "`. When `thinking` is enabled, a final `assistant` "
                    + "message must start with a thinking block (preceeding the lastmost set of `tool_use` and "
                    + "`tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid "
                    + "this requirement, disable `thinking`.");
        }
    }

    private static void checkTurn(List<Turn> turns, int t) throws Invalid {
        Turn turn = turns.get(t);
        if (!turn.role().equals("assistant")) {
            return;
        }
        Set<String> calls = new LinkedHashSet<>();
        turn.blocks().stream().filter(b -> b.path("type").asText().equals("tool_use"))
                .forEach(b -> calls.add(b.path("id").asText()));
        Set<String> answered = new LinkedHashSet<>();
        Turn next = t + 1 < turns.size() ? turns.get(t + 1) : null;
        if (next != null) {
            for (JsonNode b : next.blocks()) {
                if (!b.path("type").asText().equals("tool_result")) {
                    break; // results count only at the start of the turn
                }
                answered.add(b.path("tool_use_id").asText());
            }
            for (String id : answered) {
                if (!calls.contains(id)) {
                    throw new Invalid("messages." + next.firstIndex() + ".content: unexpected `tool_use_id` found in "
                            + "`tool_result` blocks: " + id + ". Each `tool_result` block must have a corresponding "
                            + "`tool_use` block in the previous message.");
                }
            }
        }
        calls.removeAll(answered);
        if (!calls.isEmpty()) {
            throw new Invalid("messages." + (next == null ? turn.firstIndex() : next.firstIndex()) + ": `tool_use` ids "
                    + "were found without `tool_result` blocks immediately after: " + String.join(", ", calls)
                    + ". Each `tool_use` block must have a corresponding `tool_result` block in the next message.");
        }
    }

    private static String lastUserText(JsonNode messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode message = messages.get(i);
            if (message.path("role").asText().equals("user")) {
                String text = text(message.path("content"));
                if (!text.isEmpty()) {
                    return text;
                }
            }
        }
        return "";
    }

    /** The content of the last tool result when the final message holds results. */
    private static Optional<String> toolResult(JsonNode last) {
        if (!last.path("role").asText().equals("user") || !last.path("content").isArray()) {
            return Optional.empty();
        }
        Optional<String> result = Optional.empty();
        for (JsonNode block : last.path("content")) {
            if (block.path("type").asText().equals("tool_result")) {
                result = Optional.of(text(block.path("content")));
            }
        }
        return result;
    }

    /** A string, or the text blocks of a block list joined by spaces. */
    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode block : content) {
            if (block.path("type").asText().equals("text")) {
                texts.add(block.path("text").asText());
            }
        }
        return String.join(" ", texts);
    }

    private static List<String> stops(JsonNode stops) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : stops) {
            if (s.isTextual()) {
                out.add(s.asText());
            }
        }
        return out;
    }
}
