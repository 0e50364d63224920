package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock.ToolResult;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.Media;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Renders canonical messages as Google's {@code contents}: roles {@code user} and {@code model},
 * consecutive turns of the same role merged into one (so all responses to parallel calls share one user
 * turn), messages with nothing to show left out.
 *
 * <ul>
 *   <li>A tool call is a {@code functionCall {name, args, id}} part with its Gemini signature on the same
 *       part. A model turn with function calls but no Gemini signature on any of them (history from
 *       another provider, or a client that dropped it) gets {@link GeminiSignatures#SKIP_VALIDATOR} on its first
 *       call, the value Google documents for such history; models that validate signatures answer 400
 *       without one.</li>
 *   <li>A tool result is a {@code functionResponse {name, id, response}}. The name is the result's own or
 *       the name of the call with its id in the history (Google requires it). The response object
 *       is the result's text when that is a JSON object, else {@code {"output": text}}; an error result
 *       is {@code {"error": ...}}. Images of a result follow as sibling parts of the same turn.</li>
 *   <li>Thinking is sent only when it carries a Gemini signature (Google needs the signature, not the
 *       text, and another provider's signature is rejected); redacted reasoning and other formats'
 *       opaque blocks are dropped.</li>
 * </ul>
 */
final class GeminiUpstreamContentsWriter {
    private GeminiUpstreamContentsWriter() {
    }

    static ArrayNode write(List<Message> messages) {
        Map<String, String> callNames = new HashMap<>();
        for (Message m : messages) {
            for (ContentBlock b : m.content()) {
                if (b instanceof ToolCall c) {
                    callNames.putIfAbsent(c.id(), c.name());
                }
            }
        }
        ArrayNode contents = Json.array();
        ObjectNode last = null;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m.role() == Role.SYSTEM) {
                continue; // Gemini has no system turns: the request writer adds their text to systemInstruction
            }
            ArrayNode parts = parts(m, i, callNames);
            if (parts.isEmpty()) {
                continue;
            }
            String role = m.role() == Role.USER ? "user" : "model";
            if (last != null && last.path("role").asText().equals(role)) {
                ((ArrayNode) last.get("parts")).addAll(parts);
            } else {
                last = Json.object();
                last.put("role", role);
                last.set("parts", parts);
                contents.add(last);
            }
        }
        for (JsonNode content : contents) {
            if (content.path("role").asText().equals("model")) {
                signFirstCall((ArrayNode) content.get("parts"));
            }
        }
        return contents;
    }

    private static ArrayNode parts(Message m, int i, Map<String, String> callNames) {
        ArrayNode parts = Json.array();
        List<ContentBlock> content = m.content();
        for (int j = 0; j < content.size(); j++) {
            ContentBlock block = content.get(j);
            boolean model = m.role() == Role.ASSISTANT;
            switch (block) {
                case ContentBlock.Text t -> {
                    if (!t.text().isEmpty() || GeminiSignatures.isOwn(t.signature())) {
                        parts.add(GeminiParts.text(t.text(), t.signature()));
                    }
                }
                // No refusal part in this format: an earlier refusal goes back as what the model said.
                case ContentBlock.Refusal r -> {
                    if (!r.text().isEmpty()) {
                        parts.add(GeminiParts.text(r.text(), Optional.empty()));
                    }
                }
                case ContentBlock.Thinking t -> {
                    if (model && GeminiSignatures.isOwn(t.signature())) {
                        parts.add(GeminiParts.thought(t.text(), t.signature()));
                    }
                }
                case ToolCall c -> {
                    if (model) {
                        parts.add(GeminiParts.functionCall(c));
                    }
                }
                case ToolResult r -> {
                    if (!model) {
                        parts.add(functionResponse(r, callNames, "messages[" + i + "].content[" + j + "]"));
                        for (ContentBlock inner : r.content()) {
                            if (inner instanceof ContentBlock.Image img) {
                                parts.add(GeminiParts.media(img.source()));
                            } else if (inner instanceof ContentBlock.Document d) {
                                parts.add(GeminiParts.media(d.source()));
                            }
                        }
                    }
                }
                case ContentBlock.Image img -> parts.add(GeminiParts.media(img.source()));
                case ContentBlock.Document d -> parts.add(GeminiParts.media(d.source()));
                case ContentBlock.Opaque o -> {
                    if (o.format().equals(Gemini.FORMAT) && o.json().isObject()) {
                        parts.add(o.json().deepCopy());
                    } else {
                        // a chat-completions client's audio is Gemini's inline data
                        Media.inputAudio(o).ifPresent(audio -> parts.add(GeminiParts.media(
                                new dev.switchboard.model.MediaSource.Base64(Media.audioMediaType(audio), audio.path("data").asText("")))));
                    }
                }
                case ContentBlock.RedactedThinking r -> { }
            }
        }
        return parts;
    }

    private static ObjectNode functionResponse(ToolResult r, Map<String, String> callNames, String path) {
        String name = r.name().filter(n -> !n.isEmpty()).or(() -> Optional.ofNullable(callNames.get(r.callId())))
                .orElseThrow(() -> GatewayError.invalid(path, "The tool result for call \"" + r.callId()
                        + "\" names no function and no earlier call has that id; Gemini needs the function name.")
                        .toException());
        ObjectNode fr = Json.object();
        fr.put("name", name);
        fr.put("id", r.callId());
        fr.set("response", response(r.text(), r.isError()));
        ObjectNode part = Json.object();
        part.set("functionResponse", fr);
        return part;
    }

    /** Inverse of the reading in {@code GeminiClientContentsReader}, so a Gemini round trip is the identity. */
    static ObjectNode response(String text, boolean isError) {
        Optional<ObjectNode> object = asObject(text);
        ObjectNode out = Json.object();
        if (object.isPresent()) {
            if (!isError || object.get().hasNonNull("error")) {
                return object.get();
            }
            out.set("error", object.get());
            return out;
        }
        out.put(isError ? "error" : "output", text);
        return out;
    }

    private static Optional<ObjectNode> asObject(String text) {
        String t = text.strip();
        if (!t.startsWith("{")) {
            return Optional.empty();
        }
        try {
            return Json.MAPPER.readTree(t) instanceof ObjectNode o ? Optional.of(o) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void signFirstCall(ArrayNode parts) {
        ObjectNode first = null;
        for (JsonNode p : parts) {
            if (p.has("functionCall")) {
                if (p.has(GeminiSignatures.FIELD)) {
                    return;
                }
                if (first == null) {
                    first = (ObjectNode) p;
                }
            }
        }
        if (first != null) {
            first.put(GeminiSignatures.FIELD, GeminiSignatures.SKIP_VALIDATOR);
        }
    }
}
