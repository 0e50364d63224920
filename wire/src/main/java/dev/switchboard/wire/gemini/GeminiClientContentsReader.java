package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock.ToolResult;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.InlineMedia;
import dev.switchboard.wire.internal.JsonFields;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads {@code contents} (and {@code systemInstruction}) of a client request into canonical messages.
 * One instance per request: it remembers the calls of the latest model turn to pair responses with them.
 *
 * <p>Ids: a {@code functionCall} without {@code id} gets {@code call_<turn>_<part>} (its position, so
 * the same history always yields the same ids); a {@code functionResponse} takes the id of the call it
 * answers: the call with its {@code id} if that exists, else the first unanswered call of the same
 * name in the previous model turn. A response that answers no call is a 400, as it is for Google.
 *
 * <p>History as the GenAI SDKs keep it after a streamed answer holds one model content per chunk, the
 * last with empty {@code parts} (spec 6.3): consecutive model contents count as one model turn when
 * pairing, and a content with empty {@code parts} is skipped (it carries nothing). A missing
 * {@code parts} is still a 400.
 *
 * <p>{@code functionResponse.response}: {@code {"output": "<text>"}} becomes that text,
 * {@code {"error": "<text>"}} that text with {@code isError}, any other object (with {@code isError}
 * when it has an {@code error} key) its JSON text; {@code GeminiUpstreamContentsWriter} inverts this.
 */
final class GeminiClientContentsReader {
    /** The part fields that carry data; a part has exactly one. */
    private static final List<String> DATA_FIELDS = List.of("text", "inlineData", "fileData", "functionCall",
            "functionResponse", "executableCode", "codeExecutionResult");

    /** The calls of the latest model turn: the model contents since the last user content, taken together. */
    private List<ToolCall> previousModelCalls = List.of();
    private Role lastRole = Role.USER;
    private final Set<String> answered = new HashSet<>();
    private final Set<String> callIds = new HashSet<>();

    private GeminiClientContentsReader() {
    }

    static List<Message> read(GeminiObjectReader root) {
        ArrayNode contents = root.optArray("contents")
                .orElseThrow(() -> JsonFields.invalid("contents", "`contents` is required."));
        if (contents.isEmpty()) {
            throw JsonFields.invalid(root.at("contents"), "`contents` must contain at least one turn.");
        }
        GeminiClientContentsReader reader = new GeminiClientContentsReader();
        List<Message> messages = new ArrayList<>(contents.size());
        List<GeminiObjectReader> turns = GeminiObjectReader.objects(contents, root.at("contents"));
        for (int i = 0; i < turns.size(); i++) {
            reader.turn(turns.get(i), i).ifPresent(messages::add);
        }
        if (messages.isEmpty()) {
            throw JsonFields.invalid(root.at("contents"), "`contents` must contain at least one turn with parts.");
        }
        return messages;
    }

    /** {@code systemInstruction}: text parts only (a bare string is accepted too). */
    static List<ContentBlock> readSystem(GeminiObjectReader root) {
        Optional<JsonNode> si = root.opt("systemInstruction");
        if (si.isEmpty()) {
            return List.of();
        }
        if (si.get().isTextual()) {
            return List.of(ContentBlock.Text.of(si.get().textValue()));
        }
        GeminiObjectReader content = GeminiObjectReader.of(si.get(), root.at("systemInstruction"));
        ArrayNode parts = content.optArray("parts").orElseThrow(() -> JsonFields.invalid(content.at("parts"),
                "`" + content.at("parts") + "` is required."));
        List<ContentBlock> out = new ArrayList<>();
        for (GeminiObjectReader p : GeminiObjectReader.objects(parts, content.at("parts"))) {
            if (!p.has("text")) {
                throw JsonFields.invalid(p.path(), "`" + p.path() + "` must be a text part: a system instruction holds text only.");
            }
            out.add(ContentBlock.Text.of(p.requireString("text")));
        }
        return out;
    }

    /** The turn as a message; empty for a turn with no parts (see the class comment). */
    private Optional<Message> turn(GeminiObjectReader content, int turn) {
        Role role = role(content);
        ArrayNode parts = content.optArray("parts").orElseThrow(() -> JsonFields.invalid(content.at("parts"),
                "`" + content.at("parts") + "` is required."));
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        List<ContentBlock> blocks = new ArrayList<>(parts.size());
        List<GeminiObjectReader> items = GeminiObjectReader.objects(parts, content.at("parts"));
        for (int j = 0; j < items.size(); j++) {
            blocks.add(part(items.get(j), role, turn, j));
        }
        if (role == Role.ASSISTANT) {
            List<ToolCall> calls = blocks.stream().filter(b -> b instanceof ToolCall).map(b -> (ToolCall) b).toList();
            if (lastRole == Role.ASSISTANT) {
                List<ToolCall> all = new ArrayList<>(previousModelCalls);
                all.addAll(calls);
                previousModelCalls = all;
            } else {
                previousModelCalls = calls;
            }
        }
        lastRole = role;
        return Optional.of(new Message(role, blocks));
    }

    private static Role role(GeminiObjectReader content) {
        Optional<String> role = content.optString("role");
        if (role.isEmpty()) {
            return Role.USER;
        }
        return switch (role.get()) {
            case "user", "function" -> Role.USER; // "function" is the role older Gemini examples gave responses
            case "model" -> Role.ASSISTANT;
            default -> throw JsonFields.invalid(content.at("role"),
                    "`" + content.at("role") + "` must be \"user\" or \"model\", got \"" + role.get() + "\".");
        };
    }

    private ContentBlock part(GeminiObjectReader p, Role role, int turn, int index) {
        List<String> present = DATA_FIELDS.stream().filter(p::has).toList();
        Optional<Signature> signature = GeminiSignatures.read(p);
        if (present.size() > 1) {
            throw JsonFields.invalid(p.path(), "`" + p.path() + "` must hold exactly one of text, inlineData, fileData, "
                    + "functionCall or functionResponse; found " + String.join(" and ", present) + ".");
        }
        if (present.isEmpty()) {
            if (signature.isPresent()) {
                return new ContentBlock.Text("", Optional.empty(), signature); // a streamed signature-only part
            }
            throw JsonFields.invalid(p.path(), "`" + p.path() + "` must hold one of text, inlineData, fileData, "
                    + "functionCall or functionResponse.");
        }
        return switch (present.get(0)) {
            case "text" -> text(p, role, signature);
            case "inlineData" -> inlineData(p);
            case "fileData" -> fileData(p);
            case "functionCall" -> functionCall(p, role, turn, index, signature);
            case "functionResponse" -> functionResponse(p, role);
            default -> new ContentBlock.Opaque(Gemini.FORMAT, p.node().deepCopy()); // executable code and results
        };
    }

    private static ContentBlock text(GeminiObjectReader p, Role role, Optional<Signature> signature) {
        String text = p.requireString("text");
        if (p.optBoolean("thought").orElse(false)) {
            if (role != Role.ASSISTANT) {
                throw JsonFields.invalid(p.at("thought"), "`" + p.at("thought") + "`: thought parts belong in a model turn.");
            }
            return new ContentBlock.Thinking(text, signature);
        }
        return new ContentBlock.Text(text, Optional.empty(), signature);
    }

    private static ContentBlock inlineData(GeminiObjectReader p) {
        GeminiObjectReader d = p.requireObject("inlineData");
        String mime = d.requireNonEmptyString("mimeType");
        String data = d.requireNonEmptyString("data");
        InlineMedia.requireBase64(data, d.at("data"));
        return media(new MediaSource.Base64(mime, data), mime, p);
    }

    private static ContentBlock fileData(GeminiObjectReader p) {
        GeminiObjectReader d = p.requireObject("fileData");
        String uri = d.requireNonEmptyString("fileUri");
        String mime = d.optString("mimeType").orElse("");
        return media(isProviderFile(uri) ? new MediaSource.FileRef(uri, mime) : new MediaSource.Url(uri), mime, p);
    }

    /** Files uploaded to Google (Files API, Cloud Storage) that only Google can open. */
    private static boolean isProviderFile(String uri) {
        return GeminiParts.isGoogleFile(uri);
    }

    /** Images and documents are canonical blocks; audio, video and the rest stay Gemini-only. */
    private static ContentBlock media(MediaSource source, String mime, GeminiObjectReader p) {
        String m = mime.toLowerCase(Locale.ROOT);
        if (m.isEmpty() || m.startsWith("image/")) {
            return ContentBlock.Image.of(source);
        }
        if (m.equals("application/pdf") || m.startsWith("text/")) {
            return new ContentBlock.Document(source, Optional.empty(), Optional.empty());
        }
        return new ContentBlock.Opaque(Gemini.FORMAT, p.node().deepCopy());
    }

    private ContentBlock functionCall(GeminiObjectReader p, Role role, int turn, int index, Optional<Signature> signature) {
        GeminiObjectReader fc = p.requireObject("functionCall");
        if (role != Role.ASSISTANT) {
            throw JsonFields.invalid(fc.path(), "`" + fc.path() + "`: functionCall parts belong in a model turn.");
        }
        String name = fc.requireNonEmptyString("name");
        String args = fc.opt("args").map(a -> Json.write(JsonFields.requireObject(a, fc.at("args")))).orElse("{}");
        String id = fc.optString("id").filter(s -> !s.isEmpty()).orElse("call_" + turn + "_" + index);
        callIds.add(id);
        return new ToolCall(id, name, args, signature);
    }

    private ContentBlock functionResponse(GeminiObjectReader p, Role role) {
        GeminiObjectReader fr = p.requireObject("functionResponse");
        if (role != Role.USER) {
            throw JsonFields.invalid(fr.path(), "`" + fr.path() + "`: functionResponse parts belong in a user turn.");
        }
        String name = fr.requireNonEmptyString("name");
        ObjectNode response = fr.opt("response").map(r -> JsonFields.requireObject(r, fr.at("response")))
                .orElseGet(Json::object);
        String callId = pair(fr, name, fr.optString("id").filter(s -> !s.isEmpty()));
        List<ContentBlock> content = new ArrayList<>();
        boolean isError = response.hasNonNull("error");
        if (response.size() == 1 && response.path("output").isTextual()) {
            content.add(ContentBlock.Text.of(response.path("output").textValue()));
        } else if (response.size() == 1 && response.path("error").isTextual()) {
            content.add(ContentBlock.Text.of(response.path("error").textValue()));
        } else {
            content.add(ContentBlock.Text.of(Json.write(response)));
        }
        // Multimodal function responses (Gemini 3) carry media in their own parts.
        Optional<ArrayNode> parts = fr.optArray("parts");
        if (parts.isPresent()) {
            for (GeminiObjectReader mp : GeminiObjectReader.objects(parts.get(), fr.at("parts"))) {
                if (mp.has("inlineData")) {
                    content.add(inlineData(mp));
                } else if (mp.has("fileData")) {
                    content.add(fileData(mp));
                } else {
                    throw JsonFields.invalid(mp.path(), "`" + mp.path() + "`: the parts of a functionResponse carry media, "
                            + "as inlineData or fileData; found " + String.join(", ", fieldNames(mp)) + ".");
                }
            }
        }
        return new ToolResult(callId, Optional.of(name), content, isError, Optional.empty());
    }

    /** The id of the call this response answers (see the class comment); marks it answered. */
    private String pair(GeminiObjectReader fr, String name, Optional<String> id) {
        Optional<ToolCall> byId = id.flatMap(i -> unanswered().filter(c -> c.id().equals(i)).findFirst());
        if (byId.isPresent()) {
            answered.add(byId.get().id());
            return byId.get().id();
        }
        if (id.isPresent() && callIds.contains(id.get())) {
            answered.add(id.get());
            return id.get();
        }
        Optional<ToolCall> byName = unanswered().filter(c -> c.name().equals(name)).findFirst();
        if (byName.isPresent()) {
            answered.add(byName.get().id());
            return byName.get().id();
        }
        throw JsonFields.invalid(fr.path(), "`" + fr.path() + "` answers no functionCall: the previous model turn has no "
                + "unanswered call named \"" + name + "\"" + id.map(i -> " and no call has id \"" + i + "\"").orElse("")
                + ".");
    }

    private Stream<ToolCall> unanswered() {
        return previousModelCalls.stream().filter(c -> !answered.contains(c.id()));
    }

    private static List<String> fieldNames(GeminiObjectReader p) {
        List<String> names = new ArrayList<>();
        p.node().fieldNames().forEachRemaining(names::add);
        return names;
    }
}
