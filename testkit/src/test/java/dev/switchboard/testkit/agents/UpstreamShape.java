package dev.switchboard.testkit.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * What one upstream chat request holds, read in its own format: tool names, tool results, system text,
 * system entries between turns, cache markers, thinking. The agent suite's assertions are written once
 * against this view instead of once per format.
 */
record UpstreamShape(AgentsIT.UpstreamKind kind, JsonNode body) {

    static UpstreamShape of(AgentsIT.UpstreamKind kind, RecordedRequest request) {
        return new UpstreamShape(kind, request.json());
    }

    List<String> toolNames() {
        List<String> names = new ArrayList<>();
        switch (kind) {
            case ANTHROPIC -> body.path("tools").forEach(t -> names.add(t.path("name").asText()));
            case OPENAI -> body.path("tools").forEach(t -> names.add(t.path("function").path("name").asText()));
            case GEMINI -> body.path("tools").forEach(t -> t.path("functionDeclarations")
                    .forEach(f -> names.add(f.path("name").asText())));
            case OPENAI_RESPONSES -> body.path("tools").forEach(t -> names.add(t.path("name").asText()));
        }
        return names;
    }

    /** The parameters schema of the tool {@code name} as the upstream received it, or a missing node. */
    JsonNode toolParameters(String name) {
        for (JsonNode t : body.path("tools")) {
            switch (kind) {
                case ANTHROPIC -> {
                    if (t.path("name").asText().equals(name)) {
                        return t.path("input_schema");
                    }
                }
                case OPENAI_RESPONSES -> {
                    if (t.path("name").asText().equals(name)) {
                        return t.path("parameters");
                    }
                }
                case OPENAI -> {
                    if (t.path("function").path("name").asText().equals(name)) {
                        return t.path("function").path("parameters");
                    }
                }
                case GEMINI -> {
                    for (JsonNode f : t.path("functionDeclarations")) {
                        if (f.path("name").asText().equals(name)) {
                            return f.has("parametersJsonSchema") ? f.path("parametersJsonSchema") : f.path("parameters");
                        }
                    }
                }
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** The tool {@code name} as a Responses upstream received it (a function or a custom tool), or a missing node. */
    JsonNode toolNamed(String name) {
        for (JsonNode t : body.path("tools")) {
            if (t.path("name").asText().equals(name)) {
                return t;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** The text of every tool result in the conversation. */
    List<String> toolResultTexts() {
        List<String> texts = new ArrayList<>();
        switch (kind) {
            case ANTHROPIC -> body.path("messages").forEach(m -> m.path("content").forEach(b -> {
                if (b.path("type").asText().equals("tool_result")) {
                    texts.add(text(b.path("content")));
                }
            }));
            case OPENAI -> body.path("messages").forEach(m -> {
                if (m.path("role").asText().equals("tool")) {
                    texts.add(text(m.path("content")));
                }
            });
            case GEMINI -> body.path("contents").forEach(c -> c.path("parts").forEach(p -> {
                if (p.has("functionResponse")) {
                    texts.add(p.path("functionResponse").path("response").toString());
                }
            }));
            case OPENAI_RESPONSES -> body.path("input").forEach(i -> {
                String type = i.path("type").asText();
                if (type.equals("function_call_output") || type.equals("custom_tool_call_output")) {
                    texts.add(text(i.path("output")));
                }
            });
        }
        return texts;
    }

    /** All system text: the system prompt and, where the format has them, system turns. */
    String systemText() {
        return switch (kind) {
            case ANTHROPIC -> text(body.path("system"));
            case OPENAI -> {
                StringBuilder sb = new StringBuilder();
                body.path("messages").forEach(m -> {
                    String role = m.path("role").asText();
                    if (role.equals("system") || role.equals("developer")) {
                        sb.append(text(m.path("content"))).append('\n');
                    }
                });
                yield sb.toString();
            }
            case GEMINI -> text(body.path("systemInstruction").path("parts"));
            case OPENAI_RESPONSES -> {
                StringBuilder sb = new StringBuilder(body.path("instructions").asText(""));
                systemTurns().forEach(t -> sb.append('\n').append(text(t.message().path("content"))));
                yield sb.toString();
            }
        };
    }

    /** The messages (input items, for Responses) with a system or developer role and their index in the conversation. */
    List<IndexedMessage> systemTurns() {
        List<IndexedMessage> out = new ArrayList<>();
        JsonNode messages = kind == AgentsIT.UpstreamKind.OPENAI_RESPONSES ? body.path("input") : body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            String role = messages.get(i).path("role").asText();
            if (role.equals("system") || role.equals("developer")) {
                out.add(new IndexedMessage(i, messages.get(i)));
            }
        }
        return out;
    }

    record IndexedMessage(int index, JsonNode message) {
    }

    /** How many {@code cache_control} markers the request carries, wherever they stand. */
    int cacheMarkers() {
        return count(body);
    }

    private static int count(JsonNode node) {
        int n = node.has("cache_control") ? 1 : 0;
        for (JsonNode child : node) {
            n += count(child);
        }
        return n;
    }

    /** A string, or the {@code text} of each entry of an array of blocks or parts, joined by newlines. */
    static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode block : content) {
            if (block.has("text")) {
                sb.append(block.path("text").asText()).append('\n');
            }
        }
        return sb.toString();
    }
}
