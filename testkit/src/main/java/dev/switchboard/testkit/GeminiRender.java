package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Renders a {@link Reply} as Google's {@code GenerateContentResponse}: one whole
 * answer, or the chunks of a stream.
 *
 * <p>Reasoning becomes {@code thought: true} parts (one part when whole, one per piece when streamed).
 * Tool calls are {@code functionCall {name, args, id}} parts, all in one chunk when streamed; when the
 * model thought ({@code thinking}), the first call carries a deterministic {@code thoughtSignature}
 * ({@link GeminiRequest#signatureFor}), as Gemini does with parallel calls. {@code usageMetadata} has
 * {@code thoughtsTokenCount} and {@code cachedContentTokenCount} when positive and, as Google sends it,
 * appears on every chunk: the prompt count early, the full count on the last chunk, which also carries
 * the {@code finishReason}.
 */
final class GeminiRender {

    private final String responseId;
    private final String model;
    private final boolean thinking;

    GeminiRender(String responseId, String model, boolean thinking) {
        this.responseId = responseId;
        this.model = model;
        this.thinking = thinking;
    }

    ObjectNode response(Reply reply) {
        ScriptedAnswer answer = reply.answer();
        ArrayNode parts = TestkitJson.array();
        if (!answer.reasoning().isEmpty()) {
            parts.add(thought(ScriptedAnswer.join(answer.reasoning())));
        }
        switch (answer) {
            case ScriptedAnswer.Text text -> parts.addObject().put("text", text.text());
            case ScriptedAnswer.ToolCalls calls -> parts.addAll(calls(calls));
        }
        return chunk(parts, Optional.of(finishReason(answer.finish())), usage(reply.usage()));
    }

    /** Every chunk of the stream, in order. */
    List<ObjectNode> chunks(Reply reply) {
        ScriptedAnswer answer = reply.answer();
        List<ArrayNode> pieces = new ArrayList<>();
        for (String piece : answer.reasoning()) {
            pieces.add(TestkitJson.array().add(thought(piece)));
        }
        switch (answer) {
            case ScriptedAnswer.Text text -> text.pieces().forEach(p -> pieces.add(TestkitJson.array().add(TestkitJson.object().put("text", p))));
            case ScriptedAnswer.ToolCalls calls -> pieces.add(calls(calls));
        }
        if (pieces.isEmpty()) {
            pieces.add(TestkitJson.array());
        }
        ObjectNode early = TestkitJson.object()
                .put("promptTokenCount", reply.usage().promptTokens())
                .put("totalTokenCount", reply.usage().promptTokens());
        List<ObjectNode> chunks = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            boolean last = i == pieces.size() - 1;
            chunks.add(chunk(pieces.get(i), last ? Optional.of(finishReason(answer.finish())) : Optional.empty(),
                    last ? usage(reply.usage()) : early.deepCopy()));
        }
        return chunks;
    }

    /** Google's error envelope: {@code {"error": {code, message, status}}}. */
    static ObjectNode error(int status, String message) {
        ObjectNode body = TestkitJson.object();
        body.putObject("error").put("code", status).put("message", message).put("status", statusWord(status));
        return body;
    }

    /** Google's answer to a bad API key: 400 INVALID_ARGUMENT with reason {@code API_KEY_INVALID}, not a 401. */
    static ObjectNode invalidKey() {
        ObjectNode body = error(400, "API key not valid. Please pass a valid API key.");
        ObjectNode info = ((ObjectNode) body.get("error")).putArray("details").addObject();
        info.put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", "API_KEY_INVALID")
                .put("domain", "googleapis.com");
        info.putObject("metadata").put("service", "generativelanguage.googleapis.com");
        return body;
    }

    static String statusWord(int status) {
        return switch (status) {
            case 400 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 501 -> "UNIMPLEMENTED";
            case 502, 503 -> "UNAVAILABLE";
            case 504 -> "DEADLINE_EXCEEDED";
            default -> status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
        };
    }

    private ArrayNode calls(ScriptedAnswer.ToolCalls calls) {
        ArrayNode parts = TestkitJson.array();
        for (ScriptedAnswer.ToolCall call : calls.calls()) {
            ObjectNode part = parts.addObject();
            ObjectNode fc = part.putObject("functionCall");
            fc.put("name", call.name());
            fc.set("args", TestkitJson.parseOrMissing(call.arguments().getBytes(StandardCharsets.UTF_8)));
            fc.put("id", callId(call));
            if (thinking && parts.size() == 1) {
                part.put("thoughtSignature", GeminiRequest.signatureFor(call.sequence()));
            }
        }
        return parts;
    }

    static String callId(ScriptedAnswer.ToolCall call) {
        return "fc_" + call.sequence();
    }

    private static ObjectNode thought(String text) {
        return TestkitJson.object().put("text", text).put("thought", true);
    }

    private ObjectNode chunk(ArrayNode parts, Optional<String> finishReason, JsonNode usage) {
        ObjectNode candidate = TestkitJson.object();
        ObjectNode content = candidate.putObject("content");
        content.put("role", "model");
        content.set("parts", parts);
        finishReason.ifPresent(r -> candidate.put("finishReason", r));
        candidate.put("index", 0);
        ObjectNode response = TestkitJson.object();
        response.putArray("candidates").add(candidate);
        response.set("usageMetadata", usage);
        response.put("modelVersion", model);
        response.put("responseId", responseId);
        return response;
    }

    private static ObjectNode usage(ScriptedUsage usage) {
        ObjectNode u = TestkitJson.object()
                .put("promptTokenCount", usage.promptTokens())
                .put("candidatesTokenCount", usage.completionTokens() - usage.reasoningTokens())
                .put("totalTokenCount", usage.totalTokens());
        if (usage.reasoningTokens() > 0) {
            u.put("thoughtsTokenCount", usage.reasoningTokens());
        }
        if (usage.cachedTokens() > 0) {
            u.put("cachedContentTokenCount", usage.cachedTokens());
        }
        u.putArray("promptTokensDetails").addObject().put("modality", "TEXT").put("tokenCount", usage.promptTokens());
        return u;
    }

    private static String finishReason(ScriptedAnswer.Finish finish) {
        return switch (finish) {
            case STOP, TOOL_CALLS -> "STOP"; // Gemini has no tool-use reason
            case LENGTH -> "MAX_TOKENS";
        };
    }
}
