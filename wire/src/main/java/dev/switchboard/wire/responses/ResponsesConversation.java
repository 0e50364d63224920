package dev.switchboard.wire.responses;

import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.path;

import dev.switchboard.model.ContentBlock.Document;
import dev.switchboard.model.ContentBlock.Image;
import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock.ToolResult;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.internal.FreeformTools;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a Responses conversation (the stored chain's items, then the request's input items) into
 * canonical system blocks and turns.
 *
 * <ul>
 *   <li>System and developer messages become system blocks, in order, wherever they stand.</li>
 *   <li>Consecutive assistant-side items (reasoning, assistant messages, function calls) form one
 *       ASSISTANT turn, in item order: that is how one model answer is spread over items.</li>
 *   <li>Consecutive {@code function_call_output}s form one USER turn of tool results, each named from
 *       the call it answers (Gemini needs the name); a user message right after them joins that turn
 *       behind the results, where the messages format wants them.</li>
 *   <li>Reasoning items give back what {@link ResponsesReasoningPayload} kept: the trace's own signature,
 *       redacted reasoning, and the signatures that belonged to a call or a text of the same turn.</li>
 * </ul>
 *
 * Pairing is checked as the Responses API does: an output must answer a call that came before it,
 * and every call must have its output by the end of the input.
 */
final class ResponsesConversation {
    /** Where the stored chain's items came from, for error messages. */
    static final String HISTORY = "previous_response_id";

    record Result(List<ContentBlock> system, List<Message> messages) {
    }

    /** An item and the JSON path to name when it is wrong. */
    record Located(ResponsesItem item, String path) {
    }

    private final List<ContentBlock> system = new ArrayList<>();
    private final List<Message> turns = new ArrayList<>();
    private final Map<String, String> callNames = new HashMap<>();
    private final Map<String, String> unanswered = new LinkedHashMap<>();
    private final Map<String, Signature> callSignatures = new HashMap<>();
    private List<ContentBlock> open;
    private Role openRole;
    private boolean openIsToolResults;

    private ResponsesConversation() {
    }

    static Result build(List<Located> items) {
        ResponsesConversation c = new ResponsesConversation();
        items.forEach(l -> c.add(l.item(), l.path()));
        c.close();
        if (!c.unanswered.isEmpty()) {
            String callId = c.unanswered.keySet().iterator().next();
            throw invalid("input", "No tool output found for function call " + callId + ": add a "
                    + "function_call_output item with call_id \"" + callId + "\" to `input`.");
        }
        return new Result(c.system, c.turns);
    }

    private void add(ResponsesItem item, String p) {
        switch (item) {
            case ResponsesItem.Message m -> message(m, p);
            case ResponsesItem.FunctionCall c -> call(c.callId(), ResponsesToolNames.flat(c.namespace(), c.name()), c.arguments(), p);
            case ResponsesItem.CustomToolCall c -> call(c.callId(), ResponsesToolNames.flat(c.namespace(), c.name()),
                    FreeformTools.argumentsOf(c.input()), p);
            case ResponsesItem.FunctionCallOutput r -> output(r.callId(), r.output(), p, "function_call");
            case ResponsesItem.CustomToolCallOutput r -> output(r.callId(), r.output(), p, "custom_tool_call");
            case ResponsesItem.Reasoning r -> reasoning(r);
        }
    }

    /** A call; namespaced and custom tools are the functions {@link ResponsesToolNames} makes of them. */
    private void call(String callId, String name, String arguments, String p) {
        turn(Role.ASSISTANT);
        open.add(new ToolCall(callId, name, arguments, Optional.ofNullable(callSignatures.remove(callId))));
        callNames.put(callId, name);
        unanswered.put(callId, p);
    }

    private void output(String callId, ResponsesItem.ToolOutput output, String p, String callType) {
        String name = callNames.get(callId);
        if (name == null) {
            throw invalid(p.equals(HISTORY) ? p : path(p, "call_id"), "No " + callType + " with call_id \""
                    + callId + "\" comes before this " + callType + "_output.");
        }
        unanswered.remove(callId);
        if (!(openRole == Role.USER && openIsToolResults)) {
            close();
            open(Role.USER, true);
        }
        open.add(new ToolResult(callId, Optional.of(name), toolOutput(output), false, Optional.empty()));
    }

    private void message(ResponsesItem.Message m, String p) {
        switch (m.role()) {
            case SYSTEM, DEVELOPER -> {
                for (ResponsesPart part : m.content()) {
                    if (part instanceof ResponsesPart.InputText t) {
                        system.add(Text.of(t.text()));
                    }
                }
            }
            case ASSISTANT -> {
                turn(Role.ASSISTANT);
                for (ResponsesPart part : m.content()) {
                    switch (part) {
                        case ResponsesPart.OutputText t -> open.add(Text.of(t.text()));
                        case ResponsesPart.Refusal r -> open.add(new ContentBlock.Refusal(r.refusal()));
                        default -> {
                            // The reader admits only output parts in assistant messages.
                        }
                    }
                }
            }
            case USER -> {
                if (openRole == Role.USER && openIsToolResults) {
                    openIsToolResults = false;
                } else {
                    close();
                    open(Role.USER, false);
                }
                m.content().forEach(part -> open.add(inputBlock(part)));
            }
        }
    }

    private void reasoning(ResponsesItem.Reasoning r) {
        turn(Role.ASSISTANT);
        String text = String.join("\n\n", r.content().isEmpty() ? r.summary() : r.content());
        Optional<ResponsesReasoningPayload> payload = r.encryptedContent().map(ResponsesReasoningPayload::decode);
        if (payload.isEmpty()) {
            if (!text.isEmpty()) {
                open.add(Thinking.of(text));
            }
            return;
        }
        switch (payload.get()) {
            case ResponsesReasoningPayload.Own s -> open.add(new Thinking(text, Optional.of(s.signature())));
            case ResponsesReasoningPayload.Foreign f -> open.add(new Thinking(text, Optional.of(new Signature(Responses.FORMAT, f.value()))));
            case ResponsesReasoningPayload.Redacted d -> open.add(new RedactedThinking(d.data(), d.origin()));
            case ResponsesReasoningPayload.OnCall c -> signCall(c.callId(), c.signature());
            case ResponsesReasoningPayload.OnText t -> signLastText(t.signature());
        }
    }

    /** The call may already be in the open turn (our own output order) or still to come (a caller's order). */
    private void signCall(String callId, Signature sig) {
        for (int i = open.size() - 1; i >= 0; i--) {
            if (open.get(i) instanceof ToolCall c && c.id().equals(callId)) {
                open.set(i, new ToolCall(c.id(), c.name(), c.argumentsJson(), Optional.of(sig)));
                return;
            }
        }
        callSignatures.put(callId, sig);
    }

    private void signLastText(Signature sig) {
        for (int i = open.size() - 1; i >= 0; i--) {
            if (open.get(i) instanceof Text t) {
                open.set(i, new Text(t.text(), t.cache(), Optional.of(sig)));
                return;
            }
        }
        // The text it belonged to was not replayed; a signature without its part means nothing to its issuer.
    }

    private void turn(Role role) {
        if (openRole != role) {
            close();
            open(role, false);
        }
    }

    private void open(Role role, boolean toolResults) {
        open = new ArrayList<>();
        openRole = role;
        openIsToolResults = toolResults;
    }

    private void close() {
        if (open != null && !open.isEmpty()) {
            turns.add(new Message(openRole, open));
        }
        open = null;
        openRole = null;
        openIsToolResults = false;
    }

    private static List<ContentBlock> toolOutput(ResponsesItem.ToolOutput output) {
        return switch (output) {
            case ResponsesItem.ToolOutput.Text t -> List.of(Text.of(t.text()));
            case ResponsesItem.ToolOutput.Parts ps -> ps.parts().stream().map(ResponsesConversation::inputBlock).toList();
        };
    }

    static ContentBlock inputBlock(ResponsesPart part) {
        return switch (part) {
            case ResponsesPart.InputText t -> Text.of(t.text());
            case ResponsesPart.InputImage i -> new Image(MediaSource.fromUrl(i.imageUrl()),
                    i.detail().equals("low") || i.detail().equals("high") ? Optional.of(i.detail()) : Optional.empty(),
                    Optional.empty());
            case ResponsesPart.InputFile f -> new Document(fileSource(f), f.filename(), Optional.empty());
            case ResponsesPart.OutputText t -> Text.of(t.text());
            case ResponsesPart.Refusal r -> new ContentBlock.Refusal(r.refusal());
        };
    }

    private static MediaSource fileSource(ResponsesPart.InputFile f) {
        if (f.fileData().isPresent()) {
            String data = f.fileData().get();
            // Like chat completions: a data URL, or bare base64 of a PDF (the only kind OpenAI accepts here).
            return data.startsWith("data:") ? MediaSource.fromUrl(data) : new MediaSource.Base64("application/pdf", data);
        }
        if (f.fileUrl().isPresent()) {
            return new MediaSource.Url(f.fileUrl().get());
        }
        return new MediaSource.FileRef(f.fileId().orElseThrow(), "application/pdf");
    }
}
