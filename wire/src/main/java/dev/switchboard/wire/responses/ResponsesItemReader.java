package dev.switchboard.wire.responses;

import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.opt;
import static dev.switchboard.wire.internal.JsonFields.optArray;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.path;
import static dev.switchboard.wire.internal.JsonFields.require;
import static dev.switchboard.wire.internal.JsonFields.requireNonEmptyString;
import static dev.switchboard.wire.internal.JsonFields.requireObject;
import static dev.switchboard.wire.internal.JsonFields.requireString;
import static dev.switchboard.wire.internal.JsonFields.requireText;
import static dev.switchboard.wire.internal.JsonFields.wrongType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.MediaSource;
import dev.switchboard.wire.internal.InlineMedia;
import dev.switchboard.wire.responses.ResponsesItem.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads Responses items from JSON, validating as it goes: every refusal is a 400 whose
 * {@code param} is the item's JSON path. A message without {@code type} is accepted (the "easy" input
 * message the SDKs send); string content becomes one text part. Item kinds the gateway cannot run on
 * any provider (hosted-tool calls, {@code item_reference}) are refused by name rather than dropped.
 */
final class ResponsesItemReader {
    private static final Set<String> DETAILS = Set.of("auto", "low", "high", "original");
    private static final Set<String> STATUSES = Set.of("completed", "incomplete", "in_progress");

    private ResponsesItemReader() {
    }

    /** The items of an {@code input} array; {@code p} is the array's path. */
    static List<ResponsesItem> items(ArrayNode array, String p) {
        List<ResponsesItem> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            out.add(item(array.get(i), index(p, i)));
        }
        return out;
    }

    static ResponsesItem item(JsonNode node, String p) {
        ObjectNode o = requireObject(node, p);
        String type = optString(o, "type", path(p, "type")).orElse("message");
        Optional<String> id = optString(o, "id", path(p, "id")).filter(s -> !s.isEmpty());
        return switch (type) {
            case "message" -> message(o, p, id);
            case "function_call" -> new ResponsesItem.FunctionCall(id, requireNonEmptyString(o, "call_id", path(p, "call_id")),
                    requireNonEmptyString(o, "name", path(p, "name")),
                    optString(o, "arguments", path(p, "arguments")).orElse(""), status(o, p));
            case "function_call_output" -> new ResponsesItem.FunctionCallOutput(id,
                    requireNonEmptyString(o, "call_id", path(p, "call_id")), toolOutput(o, p), status(o, p));
            case "reasoning" -> reasoning(o, p, id);
            case "item_reference" -> throw invalid(path(p, "type"), "`" + path(p, "type") + "` \"item_reference\" is "
                    + "not supported; continue a stored conversation with `previous_response_id` or resend the item.");
            default -> throw invalid(path(p, "type"), "`" + path(p, "type") + "` must be message, function_call, "
                    + "function_call_output or reasoning; \"" + type + "\" items are not supported.");
        };
    }

    private static String status(ObjectNode o, String p) {
        String s = optString(o, "status", path(p, "status")).orElse("completed");
        if (!STATUSES.contains(s)) {
            throw invalid(path(p, "status"), "`" + path(p, "status") + "` must be completed, incomplete or "
                    + "in_progress; got \"" + s + "\".");
        }
        return s;
    }

    private static ResponsesItem.Message message(ObjectNode o, String p, Optional<String> id) {
        String rp = path(p, "role");
        String roleText = requireString(o, "role", rp);
        Role role = switch (roleText) {
            case "user" -> Role.USER;
            case "assistant" -> Role.ASSISTANT;
            case "system" -> Role.SYSTEM;
            case "developer" -> Role.DEVELOPER;
            default -> throw invalid(rp, "`" + rp + "` must be user, assistant, system or developer; got \""
                    + roleText + "\".");
        };
        String cp = path(p, "content");
        JsonNode content = require(o, "content", cp);
        List<ResponsesPart> parts;
        if (content.isTextual()) {
            parts = List.of(role == Role.ASSISTANT ? new ResponsesPart.OutputText(content.textValue())
                    : new ResponsesPart.InputText(content.textValue()));
        } else if (content instanceof ArrayNode a) {
            parts = new ArrayList<>(a.size());
            for (int i = 0; i < a.size(); i++) {
                parts.add(role == Role.ASSISTANT ? outputPart(a.get(i), index(cp, i)) : inputPart(a.get(i), index(cp, i),
                        role == Role.USER));
            }
        } else {
            throw wrongType(cp, "a string or an array of content parts", content);
        }
        return new ResponsesItem.Message(id, role, parts, status(o, p));
    }

    /** A part of a user (images and files allowed) or system/developer (text only) message, or of a tool output. */
    static ResponsesPart inputPart(JsonNode node, String p, boolean media) {
        ObjectNode part = requireObject(node, p);
        String tp = path(p, "type");
        String type = requireString(part, "type", tp);
        if (!media && !type.equals("input_text")) {
            throw invalid(tp, "`" + tp + "` must be \"input_text\" in a system or developer message, got \"" + type
                    + "\".");
        }
        return switch (type) {
            case "input_text" -> new ResponsesPart.InputText(requireString(part, "text", path(p, "text")));
            case "input_image" -> image(part, p);
            case "input_file" -> file(part, p);
            default -> throw invalid(tp, "`" + tp + "` must be input_text, input_image or input_file; got \"" + type
                    + "\".");
        };
    }

    private static ResponsesPart outputPart(JsonNode node, String p) {
        ObjectNode part = requireObject(node, p);
        String tp = path(p, "type");
        String type = requireString(part, "type", tp);
        return switch (type) {
            // Callers replaying a turn by hand often write the assistant's text as input_text; it means the same.
            case "output_text", "input_text" -> new ResponsesPart.OutputText(requireString(part, "text", path(p, "text")));
            case "refusal" -> new ResponsesPart.Refusal(requireString(part, "refusal", path(p, "refusal")));
            default -> throw invalid(tp, "`" + tp + "` must be output_text or refusal in an assistant message; got \""
                    + type + "\".");
        };
    }

    private static ResponsesPart.InputImage image(ObjectNode part, String p) {
        if (opt(part, "file_id").isPresent()) {
            throw invalid(path(p, "file_id"), "`" + path(p, "file_id") + "` is not supported: uploaded files are "
                    + "private to one provider; send the image as `image_url` (a URL or a data URL).");
        }
        String up = path(p, "image_url");
        String url = requireNonEmptyString(part, "image_url", up);
        if (url.startsWith("data:")) {
            InlineMedia.imageDataUrl(url, up);
        }
        String dp = path(p, "detail");
        String detail = optString(part, "detail", dp).orElse("auto");
        if (!DETAILS.contains(detail)) {
            throw invalid(dp, "`" + dp + "` must be one of auto, low, high, original; got \"" + detail + "\".");
        }
        return new ResponsesPart.InputImage(url, detail);
    }

    private static ResponsesPart.InputFile file(ObjectNode part, String p) {
        ResponsesPart.InputFile f = new ResponsesPart.InputFile(optString(part, "file_id", path(p, "file_id")),
                optString(part, "file_data", path(p, "file_data")), optString(part, "file_url", path(p, "file_url")),
                optString(part, "filename", path(p, "filename")));
        int sources = (f.fileId().isPresent() ? 1 : 0) + (f.fileData().isPresent() ? 1 : 0)
                + (f.fileUrl().isPresent() ? 1 : 0);
        if (sources != 1) {
            throw invalid(p, "`" + p + "` needs exactly one of `file_id`, `file_data` or `file_url`.");
        }
        f.fileData().ifPresent(d -> {
            if (d.startsWith("data:")) {
                InlineMedia.dataUrl(d, path(p, "file_data"));
            } else {
                InlineMedia.requireBase64(d, path(p, "file_data"));
            }
        });
        return f;
    }

    private static ResponsesItem.ToolOutput toolOutput(ObjectNode o, String p) {
        String op = path(p, "output");
        JsonNode output = require(o, "output", op);
        if (output.isTextual()) {
            return new ResponsesItem.ToolOutput.Text(output.textValue());
        }
        if (output instanceof ArrayNode a) {
            List<ResponsesPart> parts = new ArrayList<>(a.size());
            for (int i = 0; i < a.size(); i++) {
                parts.add(inputPart(a.get(i), index(op, i), true));
            }
            return new ResponsesItem.ToolOutput.Parts(parts);
        }
        throw wrongType(op, "a string or an array of input parts", output);
    }

    private static ResponsesItem.Reasoning reasoning(ObjectNode o, String p, Optional<String> id) {
        return new ResponsesItem.Reasoning(id, texts(o, "summary", "summary_text", p), texts(o, "content", "reasoning_text", p),
                optString(o, "encrypted_content", path(p, "encrypted_content")).filter(s -> !s.isEmpty()));
    }

    /** The {@code text} of each entry of {@code name} (entries of type {@code type}); missing means none. */
    private static List<String> texts(ObjectNode o, String name, String type, String p) {
        String ap = path(p, name);
        Optional<ArrayNode> a = optArray(o, name, ap);
        if (a.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.get().size(); i++) {
            String ep = index(ap, i);
            ObjectNode e = requireObject(a.get().get(i), ep);
            String t = optString(e, "type", path(ep, "type")).orElse(type);
            if (!t.equals(type)) {
                throw invalid(path(ep, "type"), "`" + path(ep, "type") + "` must be \"" + type + "\", got \"" + t + "\".");
            }
            out.add(requireText(require(e, "text", path(ep, "text")), path(ep, "text")));
        }
        return out;
    }
}
