package dev.switchboard.wire.responses;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One item of a Responses conversation, typed: what a caller sends in {@code input}, what a response
 * holds in {@code output}, and what the gateway stores of both. The same reader and writer serve all
 * three, so a stored chain is read back exactly as a caller's replayed items would be.
 *
 * <p>{@code id} is empty only until the engine assigns one ({@link Responses#withIds}); a stored or
 * rendered item always has one. {@code status} is the item's lifecycle word ({@code completed},
 * {@code incomplete}, {@code in_progress}).
 */
public sealed interface ResponsesItem {

    Optional<String> id();

    /** This item with {@code id} set (items that have one keep it). */
    ResponsesItem withId(String id);

    /** Who wrote a message item. System and developer messages become system instructions. */
    enum Role {
        USER, ASSISTANT, SYSTEM, DEVELOPER;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code message}: user, system and developer messages hold input parts, assistant messages output parts. */
    record Message(Optional<String> id, Role role, List<ResponsesPart> content, String status) implements ResponsesItem {
        public Message {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(role, "role");
            content = List.copyOf(content);
            Objects.requireNonNull(status, "status");
        }

        @Override
        public Message withId(String newId) {
            return id.isPresent() ? this : new Message(Optional.of(newId), role, content, status);
        }
    }

    /** {@code function_call}: the model called a client tool; {@code callId} pairs it with its output. */
    record FunctionCall(Optional<String> id, String callId, String name, String arguments, String status)
            implements ResponsesItem {
        public FunctionCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
            Objects.requireNonNull(status, "status");
        }

        @Override
        public FunctionCall withId(String newId) {
            return id.isPresent() ? this : new FunctionCall(Optional.of(newId), callId, name, arguments, status);
        }
    }

    /** {@code function_call_output}: the caller's result of the call {@code callId}. */
    record FunctionCallOutput(Optional<String> id, String callId, ToolOutput output, String status) implements ResponsesItem {
        public FunctionCallOutput {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(output, "output");
            Objects.requireNonNull(status, "status");
        }

        @Override
        public FunctionCallOutput withId(String newId) {
            return id.isPresent() ? this : new FunctionCallOutput(Optional.of(newId), callId, output, status);
        }
    }

    /**
     * {@code reasoning}: the trace as {@code summary} texts (and raw {@code content} texts, which some
     * servers send), plus {@code encryptedContent}, the opaque state the issuer needs to accept the
     * trace again (see {@link ResponsesReasoningPayload} for what the gateway keeps there).
     */
    record Reasoning(Optional<String> id, List<String> summary, List<String> content,
                     Optional<String> encryptedContent) implements ResponsesItem {
        public Reasoning {
            Objects.requireNonNull(id, "id");
            summary = List.copyOf(summary);
            content = List.copyOf(content);
            Objects.requireNonNull(encryptedContent, "encryptedContent");
        }

        @Override
        public Reasoning withId(String newId) {
            return id.isPresent() ? this : new Reasoning(Optional.of(newId), summary, content, encryptedContent);
        }
    }

    /** The {@code output} of a {@code function_call_output}: a string or a list of input parts. */
    sealed interface ToolOutput {
        record Text(String text) implements ToolOutput {
            public Text {
                Objects.requireNonNull(text, "text");
            }
        }

        record Parts(List<ResponsesPart> parts) implements ToolOutput {
            public Parts {
                parts = List.copyOf(parts);
            }
        }
    }
}
