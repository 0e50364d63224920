package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.LogprobEntries;
import java.util.List;
import java.util.function.Function;

/**
 * Renders {@link ResponsesItem}s in the shape the OpenAI SDKs parse: every item with {@code type}, {@code id}
 * and (except reasoning) {@code status}; output text with {@code annotations} and {@code logprobs};
 * images with their {@code detail}. The inverse of {@link ResponsesItemReader} on everything the reader keeps.
 */
final class ResponsesItemWriter {
    private ResponsesItemWriter() {
    }

    static ObjectNode write(ResponsesItem item) {
        ObjectNode o = Json.object();
        switch (item) {
            case ResponsesItem.Message m -> {
                o.put("type", "message");
                m.id().ifPresent(id -> o.put("id", id));
                o.put("role", m.role().wire());
                o.put("status", m.status());
                o.set("content", parts(m.content()));
            }
            case ResponsesItem.FunctionCall c -> call(o, "function_call", c.id(), c.callId(), c.name(), c.namespace())
                    .put("arguments", c.arguments()).put("status", c.status());
            case ResponsesItem.CustomToolCall c -> call(o, "custom_tool_call", c.id(), c.callId(), c.name(), c.namespace())
                    .put("input", c.input()).put("status", c.status());
            case ResponsesItem.CustomToolCallOutput r -> output(o, "custom_tool_call_output", r.id(), r.callId(), r.output(),
                    r.status());
            case ResponsesItem.FunctionCallOutput r -> output(o, "function_call_output", r.id(), r.callId(), r.output(), r.status());
            case ResponsesItem.Reasoning r -> {
                o.put("type", "reasoning");
                r.id().ifPresent(id -> o.put("id", id));
                ArrayNode summary = o.putArray("summary");
                r.summary().forEach(s -> summary.add(summaryText(s)));
                if (!r.content().isEmpty()) {
                    ArrayNode content = o.putArray("content");
                    r.content().forEach(s -> content.addObject().put("type", "reasoning_text").put("text", s));
                }
                r.encryptedContent().ifPresent(e -> o.put("encrypted_content", e));
            }
        }
        return o;
    }

    /** A tool's output item, function or custom: the same fields under its own type. */
    /** The fields a call item starts with; the caller adds its arguments or input, then its status. */
    private static ObjectNode call(ObjectNode o, String type, java.util.Optional<String> id, String callId, String name,
                                   java.util.Optional<String> namespace) {
        callHead(o, type, id, callId);
        o.put("name", name);
        namespace.ifPresent(ns -> o.put("namespace", ns));
        return o;
    }

    private static void output(ObjectNode o, String type, java.util.Optional<String> id, String callId,
                               ResponsesItem.ToolOutput output, String status) {
        callHead(o, type, id, callId);
        switch (output) {
            case ResponsesItem.ToolOutput.Text t -> o.put("output", t.text());
            case ResponsesItem.ToolOutput.Parts ps -> o.set("output", parts(ps.parts()));
        }
        o.put("status", status);
    }

    /** The type, id (when it has one) and call id of an item about one call. */
    private static void callHead(ObjectNode o, String type, java.util.Optional<String> id, String callId) {
        o.put("type", type);
        id.ifPresent(i -> o.put("id", i));
        o.put("call_id", callId);
    }

    static ArrayNode write(List<ResponsesItem> items) {
        return array(items, ResponsesItemWriter::write);
    }

    static ObjectNode summaryText(String text) {
        ObjectNode s = Json.object();
        s.put("type", "summary_text");
        s.put("text", text);
        return s;
    }

    static ArrayNode parts(List<ResponsesPart> parts) {
        return array(parts, ResponsesItemWriter::part);
    }

    private static <T> ArrayNode array(List<T> values, Function<T, ObjectNode> write) {
        ArrayNode a = Json.array();
        values.forEach(v -> a.add(write.apply(v)));
        return a;
    }

    static ObjectNode part(ResponsesPart part) {
        ObjectNode o = Json.object();
        switch (part) {
            case ResponsesPart.InputText t -> {
                o.put("type", "input_text");
                o.put("text", t.text());
            }
            case ResponsesPart.InputImage i -> {
                o.put("type", "input_image");
                o.put("image_url", i.imageUrl());
                o.put("detail", i.detail());
            }
            case ResponsesPart.InputFile f -> {
                o.put("type", "input_file");
                f.fileId().ifPresent(v -> o.put("file_id", v));
                f.fileData().ifPresent(v -> o.put("file_data", v));
                f.fileUrl().ifPresent(v -> o.put("file_url", v));
                f.filename().ifPresent(v -> o.put("filename", v));
            }
            case ResponsesPart.OutputText t -> {
                o.put("type", "output_text");
                o.put("text", t.text());
                o.putArray("annotations");
                o.set("logprobs", LogprobEntries.write(t.logprobs()));
            }
            case ResponsesPart.Refusal r -> {
                o.put("type", "refusal");
                o.put("refusal", r.refusal());
            }
        }
        return o;
    }
}
