package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import java.util.List;
import java.util.TreeMap;

/**
 * Folds a chat-completions SSE stream the way client SDKs do (content and reasoning concatenated, tool
 * calls merged by {@code index}), so two streams can be compared by what a client ends up with.
 */
final class OpenAiChunkAccumulator {
    private final StringBuilder content = new StringBuilder();
    private final StringBuilder refusal = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final TreeMap<Integer, String[]> calls = new TreeMap<>();
    private String finish = "";
    private JsonNode usage = Json.MAPPER.nullNode();
    private JsonNode error = Json.MAPPER.nullNode();
    private boolean done;

    static ObjectNode fold(List<SseEvent> events) {
        OpenAiChunkAccumulator a = new OpenAiChunkAccumulator();
        for (SseEvent e : events) {
            a.accept(e.data());
        }
        return a.result();
    }

    void accept(String data) {
        if (data.equals("[DONE]")) {
            done = true;
            return;
        }
        JsonNode c = Json.parse(data);
        if (c.path("usage").isObject()) {
            usage = c.get("usage");
        }
        if (c.has("error")) {
            error = c.get("error");
        }
        for (JsonNode choice : c.path("choices")) {
            JsonNode d = choice.path("delta");
            content.append(d.path("content").asText(""));
            refusal.append(d.path("refusal").asText(""));
            // Upstreams send one of the two spellings (ours sends both with the same text).
            reasoning.append(d.path("reasoning_content").isTextual() ? d.path("reasoning_content").asText()
                    : d.path("reasoning").asText(""));
            for (JsonNode tc : d.path("tool_calls")) {
                String[] call = calls.computeIfAbsent(tc.path("index").asInt(), k -> new String[] {"", "", ""});
                call[0] += tc.path("id").asText("");
                call[1] += tc.path("function").path("name").asText("");
                call[2] += tc.path("function").path("arguments").asText("");
            }
            if (choice.path("finish_reason").isTextual()) {
                finish = choice.path("finish_reason").asText();
            }
        }
    }

    ObjectNode result() {
        ObjectNode o = Json.object();
        o.put("content", content.toString());
        o.put("refusal", refusal.toString());
        o.put("reasoning", reasoning.toString());
        var arr = o.putArray("tool_calls");
        calls.forEach((i, c) -> arr.addObject().put("index", i).put("id", c[0]).put("name", c[1]).put("arguments", c[2]));
        o.put("finish_reason", finish);
        o.set("usage", usage);
        o.set("error", error);
        o.put("done", done);
        return o;
    }
}
