package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Responses {@code POST /v1/responses} body read into a {@link Prompt}, plus what the Responses dialect
 * needs beyond it. The fake refuses, with 400 and OpenAI's wording, what the real endpoint refuses and
 * gateways get wrong:
 *
 * <ul>
 *   <li>unknown parameters ({@code stop}, {@code max_tokens}, {@code messages}...) and a missing
 *       {@code model} or {@code input}; {@code max_output_tokens} below 16;</li>
 *   <li>for a model that does not reason ({@code -noreason}): {@code include} of encrypted reasoning and
 *       any {@code reasoning.effort};</li>
 *   <li>input items: an assistant message with input parts, a user message with output parts, a
 *       {@code reasoning} item without {@code encrypted_content} (nothing is stored with
 *       {@code store: false}), encrypted content this fake did not issue or that was altered
 *       ({@link FakeSignatures#encryptedProblem}), a reasoning item not followed by the item it led to, a
 *       {@code function_call_output} answering no earlier call, a call without its output, an
 *       {@code item_reference};</li>
 *   <li>{@code custom_tool_call} items without their free-text {@code input}, and outputs whose type does
 *       not match their call's ({@code function_call_output} for a function call, {@code custom_tool_call_output}
 *       for a custom one);</li>
 *   <li>tools: names outside {@code ^[a-zA-Z0-9_-]{1,64}$}, a custom tool's {@code format} other than text or
 *       a lark or regex grammar with its definition, a strict function (the default when
 *       {@code strict} is absent) whose schema is not closed ({@code additionalProperties: false} and every
 *       property required), a named {@code tool_choice} naming no tool;</li>
 *   <li>{@code text.format}: {@code json_schema} without a valid name or schema, {@code json_object} when
 *       neither the input nor the instructions say "json".</li>
 * </ul>
 *
 * @param prompt          the dialect-neutral facts
 * @param stream          {@code stream: true}
 * @param encrypted       {@code include} asks for {@code reasoning.encrypted_content}
 * @param summary         {@code reasoning.summary} asks for a summary of the reasoning
 * @param store           {@code store}, which OpenAI defaults to true
 * @param customTools     the names of the {@code custom} (free-text) tools, whose calls are
 *                        {@code custom_tool_call} items; the answer generator sees each as a function of one
 *                        string argument, {@value #CUSTOM_INPUT}, whose value is the call's input
 */
record ResponsesCreateBody(Prompt prompt, boolean stream, boolean encrypted, boolean summary, boolean store,
                           Set<String> customTools) {

    static final int MIN_OUTPUT_TOKENS = 16;
    /** The argument that carries a custom tool's input in the answer generator's calls. */
    static final String CUSTOM_INPUT = "input";
    private static final Set<String> GRAMMAR_SYNTAXES = Set.of("lark", "regex");
    static final Set<String> KNOWN = Set.of("model", "input", "instructions", "tools", "tool_choice",
            "parallel_tool_calls", "text", "reasoning", "max_output_tokens", "temperature", "top_p", "store", "stream",
            "stream_options", "include", "metadata", "user", "safety_identifier", "prompt_cache_key",
            "prompt_cache_retention", "service_tier", "truncation", "top_logprobs", "max_tool_calls",
            "previous_response_id", "background", "conversation", "prompt", "client_metadata", "context_management",
            "prompt_cache_options");
    private static final Set<String> EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "xhigh");
    private static final Set<String> SUMMARIES = Set.of("auto", "concise", "detailed");
    private static final Set<String> INPUT_PARTS = Set.of("input_text", "input_image", "input_file");
    private static final Set<String> OUTPUT_PARTS = Set.of("output_text", "refusal");
    private static final Pattern NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    /** A request the fake refuses with 400; {@code param} names the field as OpenAI does. */
    static final class Invalid extends Exception {
        private final Optional<String> param;

        Invalid(String param, String message) {
            super(message);
            this.param = Optional.ofNullable(param);
        }

        Optional<String> param() {
            return param;
        }
    }

    static ResponsesCreateBody parse(JsonNode body, boolean reasoningModel) throws Invalid {
        if (!body.isObject()) {
            throw new Invalid(null, "We could not parse the JSON body of your request. Expected a JSON object.");
        }
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KNOWN.contains(name)) {
                throw new Invalid(name, "Unknown parameter: '" + name + "'.");
            }
        }
        if (!body.path("model").isTextual() || body.path("model").asText().isEmpty()) {
            throw new Invalid("model", "Missing required parameter: 'model'.");
        }
        JsonNode max = body.path("max_output_tokens");
        if (!max.isMissingNode() && !max.isNull() && (!max.isIntegralNumber() || max.asLong() < MIN_OUTPUT_TOKENS)) {
            throw new Invalid("max_output_tokens", "Invalid 'max_output_tokens': integer below minimum value. Expected a "
                    + "value >= " + MIN_OUTPUT_TOKENS + ", but got " + max + " instead.");
        }
        boolean encrypted = false;
        for (JsonNode include : body.path("include")) {
            if (include.asText().equals("reasoning.encrypted_content")) {
                encrypted = true;
            }
        }
        JsonNode reasoning = body.path("reasoning");
        String effort = reasoning.path("effort").asText("");
        String summary = reasoning.path("summary").asText("");
        if (!reasoningModel && encrypted) {
            throw new Invalid("include", "Encrypted content is not supported with this model.");
        }
        if (!reasoningModel && !effort.isEmpty()) {
            throw new Invalid("reasoning.effort", "Unsupported parameter: 'reasoning.effort' is not supported with this model.");
        }
        if (!effort.isEmpty() && !EFFORTS.contains(effort)) {
            throw new Invalid("reasoning.effort", "Invalid value: '" + effort + "'. Supported values are: " + EFFORTS + ".");
        }
        if (!summary.isEmpty() && !SUMMARIES.contains(summary)) {
            throw new Invalid("reasoning.summary", "Invalid value: '" + summary + "'. Supported values are: " + SUMMARIES + ".");
        }
        boolean store = body.path("store").asBoolean(true);
        String instructions = body.path("instructions").asText("");
        Conversation conversation = conversation(body.path("input"), store);
        Set<String> customTools = new HashSet<>();
        List<Prompt.ToolSpec> tools = tools(body.path("tools"), customTools);
        Optional<String> forced = toolChoice(body.path("tool_choice"), tools, customTools);
        boolean toolsOff = body.path("tool_choice").asText("").equals("none");
        format(body.path("text").path("format"), instructions + " " + conversation.allText);

        Prompt prompt = new Prompt(body.path("model").asText(), conversation.lastUserText, conversation.toolResult,
                toolsOff ? List.of() : tools, forced, max.isIntegralNumber() ? Optional.of(max.asInt()) : Optional.empty(),
                List.of(), instructions.length() + conversation.chars, !effort.isEmpty() && !effort.equals("none"),
                OpenAiRequest.schema(body.path("text").path("format").path("schema")));
        return new ResponsesCreateBody(prompt, body.path("stream").asBoolean(false), encrypted, !summary.isEmpty(), store,
                Set.copyOf(customTools));
    }

    private record Conversation(String lastUserText, Optional<String> toolResult, int chars, String allText) {
    }

    private static Conversation conversation(JsonNode input, boolean store) throws Invalid {
        if (input.isTextual()) {
            return new Conversation(input.asText(), Optional.empty(), input.asText().length(), input.asText());
        }
        if (!input.isArray() || input.isEmpty()) {
            throw new Invalid("input", "Missing required parameter: 'input'.");
        }
        String lastUser = "";
        Optional<String> toolResult = Optional.empty();
        int chars = 0;
        StringBuilder all = new StringBuilder();
        Map<String, Integer> unanswered = new LinkedHashMap<>();
        Map<String, String> calls = new HashMap<>(); // call id -> the output item type that answers it
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            String at = "input[" + i + "]";
            String type = item.path("type").asText(item.has("role") ? "message" : "");
            toolResult = Optional.empty();
            switch (type) {
                case "message" -> {
                    String text = message(item, at);
                    chars += text.length();
                    all.append(text).append(' ');
                    if (item.path("role").asText().equals("user")) {
                        lastUser = text;
                    }
                }
                case "reasoning" -> reasoning(item, at, input.path(i + 1), store);
                case "function_call", "custom_tool_call" -> {
                    boolean custom = type.equals("custom_tool_call");
                    for (String field : List.of("call_id", "name", custom ? "input" : "arguments")) {
                        if (!item.path(field).isTextual()) {
                            throw new Invalid(at + "." + field, "Missing required parameter: '" + at + "." + field + "'.");
                        }
                    }
                    calls.put(item.path("call_id").asText(), type + "_output");
                    unanswered.put(item.path("call_id").asText(), i);
                }
                case "function_call_output", "custom_tool_call_output" -> {
                    String callId = item.path("call_id").asText();
                    if (!type.equals(calls.get(callId))) {
                        throw new Invalid("input", "No tool call found for " + (type.startsWith("custom") ? "custom tool"
                                : "function") + " call output with call_id " + callId + ".");
                    }
                    unanswered.remove(callId);
                    String output = outputText(item.path("output"));
                    chars += output.length();
                    all.append(output).append(' ');
                    toolResult = Optional.of(output);
                }
                case "item_reference" -> throw new Invalid("input", "Item with id '" + item.path("id").asText()
                        + "' not found. Items are not persisted when `store` is set to false.");
                default -> throw new Invalid(at + ".type", "Invalid value: '" + type + "'.");
            }
        }
        if (!unanswered.isEmpty()) {
            throw new Invalid("input", "No tool output found for function call " + unanswered.keySet().iterator().next() + ".");
        }
        return new Conversation(lastUser, toolResult, chars, all.toString());
    }

    /** The text of a message item; its parts must suit its role. */
    private static String message(JsonNode item, String at) throws Invalid {
        String role = item.path("role").asText();
        if (!Set.of("user", "assistant", "system", "developer").contains(role)) {
            throw new Invalid(at + ".role", "Invalid value: '" + role + "'. Supported values are: 'user', 'assistant', "
                    + "'system', and 'developer'.");
        }
        JsonNode content = item.path("content");
        if (content.isTextual()) {
            return content.asText();
        }
        if (!content.isArray()) {
            throw new Invalid(at + ".content", "Missing required parameter: '" + at + ".content'.");
        }
        Set<String> allowed = role.equals("assistant") ? OUTPUT_PARTS : INPUT_PARTS;
        List<String> texts = new ArrayList<>();
        for (int j = 0; j < content.size(); j++) {
            JsonNode part = content.get(j);
            String type = part.path("type").asText();
            if (!allowed.contains(type)) {
                throw new Invalid(at + ".content[" + j + "]", "Invalid value: '" + type + "'. Supported values are: "
                        + String.join(" and ", allowed.stream().sorted().map(t -> "'" + t + "'").toList()) + ".");
            }
            if (type.equals("input_image") && !part.path("image_url").isTextual() && !part.path("file_id").isTextual()) {
                throw new Invalid(at + ".content[" + j + "].image_url", "Invalid type for '" + at + ".content[" + j
                        + "].image_url': expected a string.");
            }
            if (part.path("text").isTextual()) {
                texts.add(part.path("text").asText());
            } else if (part.path("refusal").isTextual()) {
                texts.add(part.path("refusal").asText());
            }
        }
        return String.join(" ", texts);
    }

    private static void reasoning(JsonNode item, String at, JsonNode next, boolean store) throws Invalid {
        String id = item.path("id").asText("rs_unknown");
        if (!item.path("encrypted_content").isTextual()) {
            if (!store) {
                throw new Invalid("input", "Item with id '" + id + "' not found. Items are not persisted when `store` is "
                        + "set to false. Try again with `store` set to true, or remove this item from your input.");
            }
        } else {
            Optional<String> problem = FakeSignatures.encryptedProblem(item.path("encrypted_content").asText());
            if (problem.isPresent()) {
                throw new Invalid(null, "The encrypted content for item " + id + " could not be verified. Reason: "
                        + problem.get());
            }
        }
        String nextType = next.path("type").asText(next.has("role") ? "message" : "");
        boolean followed = nextType.equals("function_call") || nextType.equals("custom_tool_call") || nextType.equals("reasoning")
                || nextType.equals("message") && next.path("role").asText().equals("assistant");
        if (!followed) {
            throw new Invalid("input", "Item '" + id + "' of type 'reasoning' was provided without its required following "
                    + "item.");
        }
    }

    private static String outputText(JsonNode output) {
        if (output.isTextual()) {
            return output.asText();
        }
        List<String> texts = new ArrayList<>();
        output.forEach(p -> {
            if (p.path("text").isTextual()) {
                texts.add(p.path("text").asText());
            }
        });
        return String.join(" ", texts);
    }

    /** The function and custom tools; the custom ones' names join {@code customTools}. */
    private static List<Prompt.ToolSpec> tools(JsonNode tools, Set<String> customTools) throws Invalid {
        List<Prompt.ToolSpec> specs = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            String at = "tools[" + i + "]";
            String type = tool.path("type").asText();
            if (!type.equals("function") && !type.equals("custom")) {
                continue; // hosted tools are not the fake's business
            }
            String name = tool.path("name").asText("");
            if (!NAME.matcher(name).matches()) {
                throw new Invalid(at + ".name", "Invalid '" + at + ".name': string does not match pattern. Expected a string "
                        + "that matches the pattern '^[a-zA-Z0-9_-]+$'.");
            }
            if (type.equals("custom")) {
                customFormat(tool.path("format"), at + ".format");
                customTools.add(name);
                specs.add(new Prompt.ToolSpec(name, customInputSchema()));
                continue;
            }
            JsonNode parameters = tool.path("parameters");
            if (tool.path("strict").asBoolean(true) && parameters.isObject()) {
                Optional<String> problem = strictProblem(parameters, "");
                if (problem.isPresent()) {
                    throw new Invalid(at + ".parameters", "Invalid schema for function '" + name + "': " + problem.get());
                }
            }
            specs.add(new Prompt.ToolSpec(name, parameters.isObject() ? parameters : TestkitJson.object()));
        }
        return specs;
    }

    /** A custom tool's {@code format}: absent, {@code {type: text}} or a lark or regex grammar with its definition. */
    private static void customFormat(JsonNode format, String at) throws Invalid {
        if (format.isMissingNode()) {
            return;
        }
        switch (format.path("type").asText("")) {
            case "text" -> { }
            case "grammar" -> {
                if (!GRAMMAR_SYNTAXES.contains(format.path("syntax").asText(""))) {
                    throw new Invalid(at + ".syntax", "Invalid value: '" + format.path("syntax").asText("") + "'. Supported "
                            + "values are: 'lark' and 'regex'.");
                }
                if (!format.path("definition").isTextual()) {
                    throw new Invalid(at + ".definition", "Missing required parameter: '" + at + ".definition'.");
                }
            }
            default -> throw new Invalid(at + ".type", "Invalid value: '" + format.path("type").asText("") + "'. Supported "
                    + "values are: 'text' and 'grammar'.");
        }
    }

    /** How the answer generator sees a custom tool: one string, the call's whole input. */
    private static JsonNode customInputSchema() {
        ObjectNode schema = TestkitJson.object().put("type", "object");
        schema.putObject("properties").putObject(CUSTOM_INPUT).put("type", "string");
        schema.putArray("required").add(CUSTOM_INPUT);
        return schema;
    }

    /** What OpenAI's strict mode finds wrong with a schema: every object closed, every property required. */
    static Optional<String> strictProblem(JsonNode schema, String context) {
        if (schema.path("type").asText().equals("object") || schema.has("properties")) {
            if (!schema.path("additionalProperties").isBoolean() || schema.path("additionalProperties").asBoolean()) {
                return Optional.of("In context=(" + context + "), 'additionalProperties' is required to be supplied and "
                        + "to be false.");
            }
            Set<String> required = new HashSet<>();
            schema.path("required").forEach(r -> required.add(r.asText()));
            for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> property = it.next();
                if (!required.contains(property.getKey())) {
                    return Optional.of("In context=(" + context + "), 'required' is required to be supplied and to be an "
                            + "array including every key in properties. Missing '" + property.getKey() + "'.");
                }
                Optional<String> inner = strictProblem(property.getValue(), context.isEmpty() ? "'properties', '"
                        + property.getKey() + "'" : context + ", 'properties', '" + property.getKey() + "'");
                if (inner.isPresent()) {
                    return inner;
                }
            }
        }
        if (schema.path("items").isObject()) {
            return strictProblem(schema.path("items"), context + (context.isEmpty() ? "" : ", ") + "'items'");
        }
        return Optional.empty();
    }

    /** A named choice must name a tool of its kind: {@code function} a function tool, {@code custom} a custom one. */
    private static Optional<String> toolChoice(JsonNode choice, List<Prompt.ToolSpec> tools, Set<String> customTools)
            throws Invalid {
        if (choice.isMissingNode() || choice.isTextual() && Set.of("none", "auto", "required").contains(choice.asText())) {
            return Optional.empty();
        }
        String type = choice.path("type").asText();
        if (type.equals("function") || type.equals("custom")) {
            String name = choice.path("name").asText("");
            if (tools.stream().noneMatch(t -> t.name().equals(name)) || customTools.contains(name) != type.equals("custom")) {
                throw new Invalid("tool_choice", "Tool choice '" + type + "' not found in 'tools' parameter.");
            }
            return Optional.of(name);
        }
        throw new Invalid("tool_choice", "Invalid value for 'tool_choice': " + choice + ".");
    }

    private static void format(JsonNode format, String text) throws Invalid {
        switch (format.path("type").asText("")) {
            case "", "text" -> { }
            case "json_object" -> {
                if (!text.toLowerCase(Locale.ROOT).contains("json")) {
                    throw new Invalid("input", "Response input messages must contain the word 'json' in some form to use "
                            + "'text.format' of type 'json_object'.");
                }
            }
            case "json_schema" -> {
                if (!NAME.matcher(format.path("name").asText("")).matches()) {
                    throw new Invalid("text.format.name", "Missing required parameter: 'text.format.name'.");
                }
                if (!format.path("schema").isObject()) {
                    throw new Invalid("text.format.schema", "Missing required parameter: 'text.format.schema'.");
                }
                if (format.path("strict").asBoolean(false)) {
                    Optional<String> problem = strictProblem(format.path("schema"), "");
                    if (problem.isPresent()) {
                        throw new Invalid("text.format.schema", "Invalid schema for response_format '"
                                + format.path("name").asText() + "': " + problem.get());
                    }
                }
            }
            default -> throw new Invalid("text.format.type", "Invalid value: '" + format.path("type").asText() + "'.");
        }
    }
}
