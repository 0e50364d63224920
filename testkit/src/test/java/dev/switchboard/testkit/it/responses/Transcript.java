package dev.switchboard.testkit.it.responses;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The conversation an upstream received, read from the fake's record in that upstream's own wire format
 * and flattened into comparable lines: {@code system: <text>}, {@code user: <text>},
 * {@code assistant: <text>}, {@code call <name> <id>}, {@code result <id>: <content>}. Lets one assertion
 * check the history whatever the provider kind.
 */
final class Transcript {
    private Transcript() {
    }

    static List<String> of(UpstreamKind kind, RecordedRequest request) {
        JsonNode body = ResponsesItSupport.json(request.bodyText());
        return switch (kind) {
            case OPENAI -> openAi(body);
            case ANTHROPIC -> anthropic(body);
            case GEMINI -> gemini(body);
            case RESPONSES -> responses(body);
            case SIMULATOR -> throw new IllegalArgumentException("the simulator is not recorded");
        };
    }

    /**
     * The provider signatures the request gives back: OpenAI-compatible {@code reasoning_details},
     * Anthropic thinking blocks, Gemini {@code thoughtSignature}s (Google's documented skip value
     * included, so a test can tell a kept signature from a placeholder), Responses encrypted reasoning.
     */
    static List<String> signatures(UpstreamKind kind, RecordedRequest request) {
        JsonNode body = ResponsesItSupport.json(request.bodyText());
        List<String> out = new ArrayList<>();
        switch (kind) {
            case OPENAI -> body.path("messages").forEach(m -> m.path("reasoning_details")
                    .forEach(d -> out.add(d.path("signature").asText())));
            case ANTHROPIC -> body.path("messages").forEach(m -> m.path("content").forEach(b -> {
                if (b.path("type").asText().equals("thinking")) {
                    out.add(b.path("signature").asText());
                }
            }));
            case GEMINI -> body.path("contents").forEach(c -> c.path("parts").forEach(p -> {
                if (p.has("thoughtSignature")) {
                    out.add(p.path("thoughtSignature").asText());
                }
            }));
            case RESPONSES -> body.path("input").forEach(i -> {
                if (i.has("encrypted_content")) {
                    out.add(i.path("encrypted_content").asText());
                }
            });
            case SIMULATOR -> throw new IllegalArgumentException("the simulator is not recorded");
        }
        return out;
    }

    private static List<String> openAi(JsonNode body) {
        List<String> out = new ArrayList<>();
        for (JsonNode m : body.path("messages")) {
            String role = m.path("role").asText();
            String text = text(m.path("content"));
            switch (role) {
                case "tool" -> out.add("result " + m.path("tool_call_id").asText() + ": " + text);
                case "assistant" -> {
                    if (!text.isEmpty()) {
                        out.add("assistant: " + text);
                    }
                    for (JsonNode c : m.path("tool_calls")) {
                        out.add("call " + c.at("/function/name").asText() + " " + c.path("id").asText());
                    }
                }
                default -> out.add(role + ": " + text);
            }
        }
        return out;
    }

    /** A transcript's first line, {@code system: <instructions>}, when there are instructions. */
    private static List<String> startingWithSystem(String system) {
        List<String> out = new ArrayList<>();
        if (!system.isEmpty()) {
            out.add("system: " + system);
        }
        return out;
    }

    private static List<String> anthropic(JsonNode body) {
        List<String> out = startingWithSystem(text(body.path("system")));
        for (JsonNode m : body.path("messages")) {
            String role = m.path("role").asText();
            JsonNode content = m.path("content");
            if (content.isTextual()) {
                out.add(role + ": " + content.asText());
                continue;
            }
            for (JsonNode b : content) {
                switch (b.path("type").asText()) {
                    case "text" -> out.add(role + ": " + b.path("text").asText());
                    case "tool_use" -> out.add("call " + b.path("name").asText() + " " + b.path("id").asText());
                    case "tool_result" -> out.add("result " + b.path("tool_use_id").asText() + ": " + text(b.path("content")));
                    default -> out.add(b.path("type").asText());
                }
            }
        }
        return out;
    }

    private static List<String> gemini(JsonNode body) {
        List<String> out = startingWithSystem(text(body.at("/systemInstruction/parts")));
        for (JsonNode c : body.path("contents")) {
            String role = c.path("role").asText().equals("model") ? "assistant" : "user";
            for (JsonNode p : c.path("parts")) {
                if (p.has("functionCall")) {
                    out.add("call " + p.at("/functionCall/name").asText() + " " + p.at("/functionCall/id").asText());
                } else if (p.has("functionResponse")) {
                    out.add("result " + p.at("/functionResponse/id").asText(p.at("/functionResponse/name").asText()) + ": "
                            + p.at("/functionResponse/response"));
                } else if (p.path("thought").asBoolean(false)) {
                    out.add("thinking");
                } else if (p.has("text")) {
                    out.add(role + ": " + p.path("text").asText());
                }
            }
        }
        return out;
    }

    private static List<String> responses(JsonNode body) {
        List<String> out = startingWithSystem(body.path("instructions").asText(""));
        for (JsonNode item : body.path("input")) {
            switch (item.path("type").asText("message")) {
                case "function_call" -> out.add("call " + item.path("name").asText() + " " + item.path("call_id").asText());
                case "function_call_output" -> out.add("result " + item.path("call_id").asText() + ": "
                        + text(item.path("output")));
                case "reasoning" -> out.add("reasoning");
                default -> out.add(item.path("role").asText() + ": " + text(item.path("content")));
            }
        }
        return out;
    }

    /** A string, or the text of an array of text parts/blocks. */
    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : content) {
            if (part.path("text").isTextual()) {
                sb.append(part.path("text").asText());
            }
        }
        return sb.toString();
    }
}
