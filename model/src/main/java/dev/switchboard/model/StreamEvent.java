package dev.switchboard.model;

import java.util.Objects;
import java.util.Optional;

/**
 * One event of a streamed answer, following the block lifecycle (the richest of the four formats):
 * {@code MessageStart}, then per block {@code BlockStart}, any {@code BlockDelta}s, {@code BlockStop};
 * then {@code MessageDelta} (stop reason and cumulative usage) and {@code MessageStop}. A
 * {@code StreamError} may end the stream at any point after {@code MessageStart}.
 *
 * <p>Block indexes count all blocks of the answer from 0, in order (text, thinking and tool calls share
 * one counter). Client writers that count differently (OpenAI counts tool calls only) remap them.
 */
public sealed interface StreamEvent {

    /** The answer began. {@code usage} holds what is known so far (usually the input count). */
    record MessageStart(String id, String model, Usage usage) implements StreamEvent {
        public MessageStart {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(usage, "usage");
        }
    }

    /**
     * A block opened. Its content is the block's start state: empty text, a tool call with id and name and
     * empty arguments, a thinking block with empty text, or a complete block (redacted thinking, opaque).
     */
    record BlockStart(int index, ContentBlock block) implements StreamEvent {
        public BlockStart {
            Objects.requireNonNull(block, "block");
        }
    }

    /** A piece of an open block. */
    record BlockDelta(int index, Delta delta) implements StreamEvent {
        public BlockDelta {
            Objects.requireNonNull(delta, "delta");
        }
    }

    /** The block is complete. */
    record BlockStop(int index) implements StreamEvent {}

    /** The answer's stop reason and cumulative usage. */
    record MessageDelta(StopReason stopReason, Optional<String> stopSequence, Usage usage,
                        Optional<RefusalDetails> refusalDetails) implements StreamEvent {
        public MessageDelta {
            Objects.requireNonNull(stopReason, "stopReason");
            Objects.requireNonNull(stopSequence, "stopSequence");
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(refusalDetails, "refusalDetails");
        }

        /** The end of an answer without refusal details. */
        public MessageDelta(StopReason stopReason, Optional<String> stopSequence, Usage usage) {
            this(stopReason, stopSequence, usage, Optional.empty());
        }
    }

    /** The answer is complete. */
    record MessageStop() implements StreamEvent {}

    /** The stream failed after it began; the writer reports it in-band and ends the stream properly. */
    record StreamError(GatewayError error) implements StreamEvent {
        public StreamError {
            Objects.requireNonNull(error, "error");
        }
    }

    /** Content of a {@link BlockDelta}. */
    sealed interface Delta {
        record TextDelta(String text) implements Delta {
            public TextDelta {
                Objects.requireNonNull(text, "text");
            }
        }

        /** A slice of a tool call's arguments JSON text; slices concatenate to the whole. */
        record ArgumentsDelta(String partialJson) implements Delta {
            public ArgumentsDelta {
                Objects.requireNonNull(partialJson, "partialJson");
            }
        }

        record ThinkingDelta(String text) implements Delta {
            public ThinkingDelta {
                Objects.requireNonNull(text, "text");
            }
        }

        /**
         * Log probabilities of tokens of a text block, in order; they belong to the text the block's deltas
         * carry (before, with or after them: formats differ), and add up over the stream.
         */
        record LogprobsDelta(java.util.List<TokenLogprob> tokens) implements Delta {
            public LogprobsDelta {
                tokens = java.util.List.copyOf(tokens);
            }
        }

        /** The block's signature (it replaces any earlier one). */
        record SignatureDelta(Signature signature) implements Delta {
            public SignatureDelta {
                Objects.requireNonNull(signature, "signature");
            }
        }
    }
}
