package dev.switchboard.testkit.soak;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The four chat formats as a soak client speaks them: where a request goes, its body, and how to read the text,
 * the end and the in-band error of an answer, whole or streamed.
 */
public enum ClientFormat {
    CHAT, MESSAGES, CONTENT_PARTS, RESPONSES;

    String path(String model, boolean stream) {
        return switch (this) {
            case CHAT -> "/v1/chat/completions";
            case MESSAGES -> "/v1/messages";
            case CONTENT_PARTS -> "/v1beta/models/" + model + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
            case RESPONSES -> "/v1/responses";
        };
    }

    String body(String model, boolean stream, String prompt) {
        return switch (this) {
            case CHAT -> "{\"model\":\"%s\",\"stream\":%s,\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}"
                    .formatted(model, stream, prompt);
            case MESSAGES -> "{\"model\":\"%s\",\"stream\":%s,\"max_tokens\":200,\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}"
                    .formatted(model, stream, prompt);
            case CONTENT_PARTS -> "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"%s\"}]}],\"generationConfig\":{\"maxOutputTokens\":200}}"
                    .formatted(prompt);
            case RESPONSES -> "{\"model\":\"%s\",\"stream\":%s,\"store\":false,\"max_output_tokens\":200,\"input\":\"%s\"}"
                    .formatted(model, stream, prompt);
        };
    }

    /** The text of a whole answer. */
    String text(JsonNode answer) {
        StringBuilder sb = new StringBuilder();
        switch (this) {
            case CHAT -> sb.append(answer.path("choices").path(0).path("message").path("content").asText(""));
            case MESSAGES -> answer.path("content").forEach(b -> sb.append(b.path("text").asText("")));
            case CONTENT_PARTS -> answer.path("candidates").path(0).path("content").path("parts")
                    .forEach(p -> sb.append(p.path("text").asText("")));
            case RESPONSES -> answer.path("output").forEach(item -> item.path("content")
                    .forEach(c -> sb.append(c.path("text").asText(""))));
        }
        return sb.toString();
    }

    /** Output tokens of a whole answer, or of the stream event that carries usage; -1 when there are none. */
    long outputTokens(JsonNode n) {
        JsonNode v = switch (this) {
            case CHAT -> n.path("usage").path("completion_tokens");
            case MESSAGES -> n.has("usage") ? n.path("usage").path("output_tokens")
                    : n.path("message").path("usage").path("output_tokens");
            case CONTENT_PARTS -> n.path("usageMetadata").path("candidatesTokenCount");
            case RESPONSES -> n.has("response") ? n.path("response").path("usage").path("output_tokens")
                    : n.path("usage").path("output_tokens");
        };
        return v.isNumber() ? v.asLong() : -1;
    }

    /** What one stream event adds: its text, whether it is an in-band error, whether it ends the stream properly. */
    record Event(String text, boolean error, boolean end) {
    }

    /** Reads one SSE event ({@code name} may be empty; {@code data} is the joined data lines). */
    Event event(String name, String data, JsonNode json) {
        switch (this) {
            case CHAT -> {
                if (data.equals("[DONE]")) {
                    return new Event("", false, true);
                }
                return new Event(json.path("choices").path(0).path("delta").path("content").asText(""), json.has("error"), false);
            }
            case MESSAGES -> {
                String type = name.isEmpty() ? json.path("type").asText("") : name;
                return switch (type) {
                    case "content_block_delta" -> new Event(json.path("delta").path("text").asText(""), false, false);
                    case "error" -> new Event("", true, true);
                    case "message_stop" -> new Event("", false, true);
                    default -> new Event("", false, false);
                };
            }
            case CONTENT_PARTS -> {
                if (json.has("error")) {
                    return new Event("", true, true);
                }
                StringBuilder sb = new StringBuilder();
                JsonNode candidate = json.path("candidates").path(0);
                candidate.path("content").path("parts").forEach(p -> sb.append(p.path("text").asText("")));
                return new Event(sb.toString(), false, candidate.hasNonNull("finishReason"));
            }
            case RESPONSES -> {
                String type = name.isEmpty() ? json.path("type").asText("") : name;
                return switch (type) {
                    case "response.output_text.delta" -> new Event(json.path("delta").asText(""), false, false);
                    case "error" -> new Event("", true, false);
                    case "response.failed", "response.incomplete" -> new Event("", false, true);
                    case "response.completed" -> new Event("", false, true);
                    default -> new Event("", false, false);
                };
            }
        }
        throw new IllegalStateException("unreachable");
    }

    /** What is wrong with an error answer's envelope for this format, or empty. */
    String envelopeProblem(int status, JsonNode body) {
        JsonNode error = body.path("error");
        if (!error.isObject() || !error.path("message").isTextual() || error.path("message").asText().isBlank()) {
            return "no error object with a message";
        }
        if (!error.path("type").isTextual() || !error.has("param")) {
            return "no type or no param";
        }
        if (!error.path("code").asText().equals(Integer.toString(status))) {
            return "code " + error.path("code") + " is not the status " + status;
        }
        return switch (this) {
            case MESSAGES -> body.path("type").asText().equals("error") ? "" : "no top-level type: error";
            case CONTENT_PARTS -> error.path("status").isTextual() ? "" : "no Google status word";
            default -> body.has("type") ? "a top-level type the OpenAI envelope does not have" : "";
        };
    }
}
