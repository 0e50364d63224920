package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.RawExchange;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.SseStream;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * OpenAI's Responses API as an upstream ({@code POST /v1/responses}), as OpenAI's API reference has it, plus
 * the gateway's own promise for it: stateless ({@code store: false}, no item ids, nothing referenced by id).
 */
final class ResponsesUpstream implements UpstreamFormat {
    private static final Set<String> TOP_LEVEL = Set.of("model", "input", "instructions", "tools", "tool_choice",
            "parallel_tool_calls", "text", "reasoning", "max_output_tokens", "temperature", "top_p", "store", "stream",
            "stream_options", "include", "metadata", "user", "safety_identifier", "prompt_cache_key",
            "prompt_cache_retention", "service_tier", "truncation", "top_logprobs", "max_tool_calls", "client_metadata",
            "context_management", "prompt_cache_options");
    private static final Set<String> INPUT_PARTS = Set.of("input_text", "input_image", "input_file");
    private static final Set<String> OUTPUT_PARTS = Set.of("output_text", "refusal");
    private static final Set<String> EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "xhigh");
    private static final Pattern NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");
    private static final Set<String> CUSTOM_TOOL = Set.of("type", "name", "description", "format");
    private static final Set<String> GRAMMAR_SYNTAXES = Set.of("lark", "regex");

    @Override
    public List<String> problems(RecordedRequest r, String apiKey) {
        Problems p = new Problems();
        p.require(r.method().equals("POST") && r.path().equals("/v1/responses"), "request line",
                r.method() + " " + r.path() + " is not POST /v1/responses");
        p.require(r.header("authorization").orElse("").equals("Bearer " + apiKey), "authorization",
                "not the provider's key as Bearer");
        p.require(r.header("content-type").orElse("").startsWith("application/json"), "content-type", "not application/json");
        JsonNode b = r.json();
        if (!b.isObject()) {
            p.add("body", "not a JSON object");
            return p.list;
        }
        p.onlyKnownKeys(b, TOP_LEVEL, "");
        p.require(b.path("model").isTextual() && !b.path("model").asText().isEmpty(), "model", "missing");
        p.require(b.path("store").isBoolean() && !b.path("store").asBoolean(), "store",
                "must be false: the gateway keeps no state at the provider");
        JsonNode input = b.path("input");
        p.require(input.isArray() && !input.isEmpty(), "input", "must be a non-empty array of items");
        for (int i = 0; i < input.size(); i++) {
            item(input.get(i), "input[" + i + "]", p);
        }
        for (int i = 0; i < b.path("tools").size(); i++) {
            tool(b.path("tools").get(i), "tools[" + i + "]", p);
        }
        JsonNode format = b.path("text").path("format");
        if (!format.isMissingNode()) {
            String type = format.path("type").asText();
            p.require(Set.of("text", "json_object", "json_schema").contains(type), "text.format.type",
                    "must be text, json_object or json_schema");
            if (type.equals("json_schema")) {
                p.matches(format.path("name"), NAME, "text.format.name");
                p.require(format.path("schema").isObject(), "text.format.schema", "must be an object (flat in format)");
            }
        }
        JsonNode effort = b.path("reasoning").path("effort");
        p.require(effort.isMissingNode() || EFFORTS.contains(effort.asText()), "reasoning.effort", "must be one of " + EFFORTS.stream().sorted().toList());
        for (JsonNode include : b.path("include")) {
            p.require(Set.of("reasoning.encrypted_content", "message.output_text.logprobs").contains(include.asText()),
                    "include", "unexpected " + include);
        }
        JsonNode max = b.path("max_output_tokens");
        p.require(max.isMissingNode() || max.isIntegralNumber() && max.asLong() >= 16, "max_output_tokens",
                "must be an integer of at least 16");
        JsonNode stream = b.path("stream");
        p.require(stream.isMissingNode() || stream.isBoolean(), "stream", "must be a boolean");
        return p.list;
    }

    /** A function tool (flat, strict stated) or a custom tool (free text, its format text or a grammar). */
    private static void tool(JsonNode tool, String at, Problems p) {
        String type = tool.path("type").asText();
        p.require(type.equals("function") || type.equals("custom"), at + ".type", "must be function or custom");
        p.matches(tool.path("name"), NAME, at + ".name");
        p.require(!tool.has("function"), at, "tools are flat here (no nested `function`)");
        if (type.equals("custom")) {
            p.onlyKnownKeys(tool, CUSTOM_TOOL, at);
            JsonNode format = tool.path("format");
            if (!format.isMissingNode()) {
                String formatType = format.path("type").asText();
                p.require(formatType.equals("text") || formatType.equals("grammar"), at + ".format.type",
                        "must be text or grammar");
                if (formatType.equals("grammar")) {
                    p.require(GRAMMAR_SYNTAXES.contains(format.path("syntax").asText()), at + ".format.syntax",
                            "must be one of " + GRAMMAR_SYNTAXES.stream().sorted().toList());
                    p.require(format.path("definition").isTextual(), at + ".format.definition", "must be a string");
                }
            }
            return;
        }
        p.require(tool.path("parameters").isObject(), at + ".parameters", "must be an object");
        p.require(tool.path("strict").isBoolean(), at + ".strict",
                "must be given: the format's default is true, which a non-strict schema fails");
    }

    private static void item(JsonNode item, String at, Problems p) {
        p.require(!item.has("id"), at + ".id", "must be absent: ids name stored items, and nothing is stored");
        String type = item.path("type").asText(item.has("role") ? "message" : "");
        switch (type) {
            case "message" -> {
                String role = item.path("role").asText();
                p.require(Set.of("user", "assistant", "system", "developer").contains(role), at + ".role", "unknown " + role);
                JsonNode content = item.path("content");
                if (content.isTextual()) {
                    return;
                }
                p.require(content.isArray() && !content.isEmpty(), at + ".content", "must be a string or a non-empty array");
                Set<String> allowed = role.equals("assistant") ? OUTPUT_PARTS : INPUT_PARTS;
                for (int j = 0; j < content.size(); j++) {
                    JsonNode part = content.get(j);
                    String pat = at + ".content[" + j + "]";
                    p.require(allowed.contains(part.path("type").asText()), pat + ".type", "must be one of " + allowed.stream().sorted().toList());
                    if (part.path("type").asText().equals("input_image")) {
                        p.require(part.path("image_url").isTextual(), pat + ".image_url", "must be a string (not an object)");
                    }
                }
            }
            case "reasoning" -> {
                p.require(item.path("encrypted_content").isTextual(), at + ".encrypted_content",
                        "required: without storage a reasoning item is only its encrypted content");
                p.require(item.path("summary").isArray(), at + ".summary", "must be an array");
            }
            case "function_call", "custom_tool_call" -> {
                p.require(item.path("call_id").isTextual(), at + ".call_id", "missing");
                p.matches(item.path("name"), NAME, at + ".name");
                // a function's arguments are JSON in a string, a custom tool's input free text
                boolean custom = type.equals("custom_tool_call");
                String field = custom ? "input" : "arguments";
                p.require(item.path(field).isTextual(), at + "." + field,
                        custom ? "must be the free text as a string" : "must be a JSON string");
            }
            case "function_call_output", "custom_tool_call_output" -> {
                p.require(item.path("call_id").isTextual(), at + ".call_id", "missing");
                p.require(item.path("output").isTextual() || item.path("output").isArray(), at + ".output",
                        "must be a string or a list of parts");
            }
            default -> p.add(at + ".type", "unexpected item type " + item.path("type"));
        }
    }

    @Override
    public List<String> toolNames(RecordedRequest r) {
        return UpstreamFormat.toolNamesAt(r, "/name");
    }

    /** The model must be told to reason and to show it: an effort and a summary, and encrypted reasoning kept. */
    @Override
    public Optional<String> reasoning(RecordedRequest r) {
        JsonNode reasoning = r.json().path("reasoning");
        String effort = reasoning.path("effort").asText("");
        boolean shown = reasoning.path("summary").isTextual();
        boolean kept = r.json().path("include").toString().contains("reasoning.encrypted_content");
        return !effort.isEmpty() && !effort.equals("none") && shown && kept
                ? Optional.of("reasoning: {effort: " + effort + ", summary: " + reasoning.path("summary").asText() + "}")
                : Optional.empty();
    }

    @Override
    public List<String> pngData(RecordedRequest r) {
        return UpstreamFormat.pngDataUrls(r.json().path("input"), "input_image", "/image_url");
    }

    @Override
    public Optional<String> jsonMode(RecordedRequest r) {
        String type = r.json().path("text").path("format").path("type").asText("");
        return type.startsWith("json_") ? Optional.of("text.format.type: " + type) : Optional.empty();
    }

    @Override
    public Optional<JsonNode> schema(RecordedRequest r) {
        JsonNode format = r.json().path("text").path("format");
        return format.path("type").asText().equals("json_schema") && format.path("schema").isObject()
                ? Optional.of(format.path("schema"))
                : Optional.empty();
    }

    @Override
    public void answer(RecordedRequest r, RawExchange exchange, String text) throws IOException {
        String model = r.json().path("model").asText();
        ObjectNode whole = response(model, "completed");
        ObjectNode message = whole.putArray("output").addObject().put("id", "msg_matrix").put("type", "message")
                .put("status", "completed").put("role", "assistant");
        message.putArray("content").addObject().put("type", "output_text").put("text", text).putArray("annotations");
        ObjectNode usage = whole.putObject("usage").put("input_tokens", 12);
        usage.putObject("input_tokens_details").put("cached_tokens", 0);
        usage.put("output_tokens", 9).put("total_tokens", 21);
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        if (!streamed(r)) {
            exchange.respondJson(200, whole);
            return;
        }
        SseStream sse = exchange.openSse(200);
        int[] sequence = {0};
        ObjectNode started = response(model, "in_progress");
        started.putArray("output");
        event(sse, sequence, "response.created", Fixtures.object().set("response", started));
        ObjectNode added = Fixtures.object().put("id", "msg_matrix").put("type", "message").put("status", "in_progress")
                .put("role", "assistant");
        added.putArray("content");
        event(sse, sequence, "response.output_item.added", Fixtures.object().put("output_index", 0).set("item", added));
        ObjectNode part = Fixtures.object().put("type", "output_text").put("text", "");
        part.putArray("annotations");
        event(sse, sequence, "response.content_part.added", located().set("part", part));
        for (String piece : UpstreamFormat.pieces(text)) {
            event(sse, sequence, "response.output_text.delta", located().put("delta", piece));
        }
        event(sse, sequence, "response.output_text.done", located().put("text", text));
        event(sse, sequence, "response.content_part.done", located().set("part", message.path("content").path(0).deepCopy()));
        event(sse, sequence, "response.output_item.done", Fixtures.object().put("output_index", 0)
                .set("item", message.deepCopy()));
        event(sse, sequence, "response.completed", Fixtures.object().set("response", whole));
        sse.end();
    }

    private static ObjectNode response(String model, String status) {
        return Fixtures.object().put("id", "resp_matrix").put("object", "response").put("created_at", 1_700_000_000L)
                .put("status", status).put("model", model);
    }

    private static ObjectNode located() {
        return Fixtures.object().put("item_id", "msg_matrix").put("output_index", 0).put("content_index", 0);
    }

    private static void event(SseStream sse, int[] sequence, String type, ObjectNode data) throws IOException {
        ObjectNode payload = Fixtures.object().put("type", type).put("sequence_number", sequence[0]++);
        payload.setAll(data);
        sse.event(type, Fixtures.write(payload));
    }
}
