package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.TokenLogprob;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.FreeformTools;
import dev.switchboard.wire.internal.LogprobEntries;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a whole answer of a Responses upstream (a response object) into a canonical response.
 *
 * <ul>
 *   <li>{@code reasoning} items become Thinking blocks: the text is the raw {@code content} when the
 *       server sent it, else the {@code summary} texts joined by a blank line; {@code encrypted_content}
 *       becomes the block's signature with origin {@code responses}, so it goes back to an upstream of
 *       this format on the next turn, and to no other.</li>
 *   <li>Each {@code message} item becomes one Text block of its {@code output_text} parts and one Refusal
 *       block of its {@code refusal} parts; a refusal makes the stop reason REFUSAL. The
 *       {@code output_text} parts' {@code logprobs} are the answer's token log probabilities.</li>
 *   <li>{@code function_call} items become tool calls whose id is the {@code call_id} (not the item id,
 *       which names the item, not the call); {@code custom_tool_call} items too, their free-text
 *       {@code input} as the one string argument of a free-text tool's call ({@link FreeformTools}).</li>
 *   <li>Other items (hosted tools the gateway never asks for) are left out.</li>
 *   <li>{@code status}: {@code completed} is the end of a turn (a tool use when it called functions);
 *       {@code incomplete} says why ({@code max_output_tokens}: MAX_TOKENS; {@code content_filter}:
 *       REFUSAL); {@code failed} throws its error ({@link ResponsesUpstreamErrors#fromInBand}).</li>
 *   <li>Usage: {@code input_tokens} includes cached tokens, {@code output_tokens} the reasoning tokens,
 *       as in the canonical model. An answer without usage is marked ESTIMATED.</li>
 * </ul>
 * Stop sequences, which the format cannot send, are applied here ({@link ResponsesStopSequences}). A body
 * that is not a response object throws a retryable 502.
 */
final class ResponsesUpstreamResponseReader {
    private ResponsesUpstreamResponseReader() {
    }

    static ChatResponse read(JsonNode body, List<String> stops) {
        if (!(body instanceof ObjectNode b) || !b.path("output").isArray() && !b.path("status").isTextual()) {
            if (body instanceof ObjectNode o && o.path("error").isObject()) {
                throw ResponsesUpstreamErrors.fromInBand(o.path("error")).toException();
            }
            throw malformed("the answer is not a response object");
        }
        String status = b.path("status").asText("completed");
        if (status.equals("failed") || status.equals("cancelled")) {
            JsonNode error = b.path("error").isObject() ? b.path("error")
                    : Json.object().put("code", "server_error").put("message", "The upstream's response " + status + ".");
            throw ResponsesUpstreamErrors.fromInBand(error).toException();
        }
        List<ContentBlock> content = new ArrayList<>();
        List<TokenLogprob> logprobs = new ArrayList<>();
        boolean refused = false;
        boolean called = false;
        for (JsonNode item : b.path("output")) {
            switch (item.path("type").asText("")) {
                case "reasoning" -> content.add(thinking(item));
                case "message" -> {
                    StringBuilder text = new StringBuilder();
                    StringBuilder refusal = new StringBuilder();
                    for (JsonNode part : item.path("content")) {
                        switch (part.path("type").asText("")) {
                            case "output_text" -> {
                                text.append(part.path("text").asText(""));
                                logprobs.addAll(LogprobEntries.read(part.path("logprobs")));
                            }
                            case "refusal" -> {
                                refusal.append(part.path("refusal").asText(""));
                                refused = true;
                            }
                            default -> { }
                        }
                    }
                    if (!text.isEmpty()) {
                        content.add(Text.of(text.toString()));
                    }
                    if (!refusal.isEmpty()) {
                        content.add(new ContentBlock.Refusal(refusal.toString()));
                    }
                }
                case "function_call" -> {
                    content.add(ToolCall.of(item.path("call_id").asText(""), item.path("name").asText(""),
                            item.path("arguments").asText("")));
                    called = true;
                }
                case "custom_tool_call" -> {
                    content.add(customCall(item));
                    called = true;
                }
                default -> { }
            }
        }
        StopReason stop = stopReason(status, b.path("incomplete_details").path("reason").asText(""), called, refused);
        Optional<String> stopSequence = Optional.empty();
        ResponsesStopSequences stopper = new ResponsesStopSequences(stops);
        if (stopper.active()) {
            for (int i = 0; i < content.size(); i++) {
                if (content.get(i) instanceof Text t) {
                    Optional<ResponsesStopSequences.Match> m = stopper.first(t.text());
                    if (m.isPresent()) {
                        content.set(i, Text.of(t.text().substring(0, m.get().at())));
                        content.subList(i + 1, content.size()).clear();
                        stop = StopReason.STOP_SEQUENCE;
                        stopSequence = Optional.of(m.get().stop());
                        break;
                    }
                }
            }
        }
        Usage usage = b.path("usage").isObject() ? usage(b.path("usage"))
                : Usage.EMPTY.withProvenance(Usage.Provenance.ESTIMATED);
        return new ChatResponse(b.path("id").asText(""), b.path("model").asText(""), content, stop, stopSequence, usage,
                logprobs);
    }

    /** A custom tool call as a canonical call, its free-text input as the one string argument. */
    static ToolCall customCall(JsonNode item) {
        return ToolCall.of(item.path("call_id").asText(""), item.path("name").asText(""),
                FreeformTools.argumentsOf(item.path("input").asText("")));
    }

    /** A reasoning item as a Thinking block (see the class comment). */
    static Thinking thinking(JsonNode item) {
        List<String> raw = texts(item.path("content"));
        String text = String.join("\n\n", raw.isEmpty() ? texts(item.path("summary")) : raw);
        return new Thinking(text, signature(item));
    }

    static Optional<Signature> signature(JsonNode item) {
        String encrypted = item.path("encrypted_content").asText("");
        return encrypted.isEmpty() ? Optional.empty() : Optional.of(new Signature(Responses.FORMAT, encrypted));
    }

    private static List<String> texts(JsonNode parts) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : parts) {
            String t = p.path("text").asText("");
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    static StopReason stopReason(String status, String incompleteReason, boolean called, boolean refused) {
        if (status.equals("incomplete")) {
            return incompleteReason.equals("content_filter") ? StopReason.REFUSAL : StopReason.MAX_TOKENS;
        }
        if (refused) {
            return StopReason.REFUSAL;
        }
        return called ? StopReason.TOOL_USE : StopReason.END_TURN;
    }

    /** The usage object; negative or non-numeric counts read as 0. */
    static Usage usage(JsonNode u) {
        JsonNode in = u.path("input_tokens_details");
        return new Usage(count(u.path("input_tokens")), count(u.path("output_tokens")),
                count(u.path("output_tokens_details").path("reasoning_tokens")), count(in.path("cached_tokens")),
                count(in.path("cache_write_tokens")), 0, Usage.Provenance.REPORTED);
    }

    private static long count(JsonNode n) {
        return n.isNumber() ? Math.max(0, n.asLong()) : 0;
    }

    private static GatewayException malformed(String why) {
        return UpstreamErrors.broken("The upstream answered with a malformed response: " + why + ".").toException();
    }
}
