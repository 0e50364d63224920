package dev.switchboard.wire.responses;

import dev.switchboard.model.TokenLogprob;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One content part of a message item, or of a {@code function_call_output}'s list output. Input parts
 * ({@code input_text}, {@code input_image}, {@code input_file}) are what callers write; output parts
 * ({@code output_text}, {@code refusal}) are what assistant messages hold.
 */
public sealed interface ResponsesPart {

    /** {@code input_text {text}}. */
    record InputText(String text) implements ResponsesPart {
        public InputText {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * {@code input_image {image_url, detail}}: {@code imageUrl} is an http(s) URL or a
     * {@code data:<type>;base64,} URL (a plain string in this format, unlike chat completions).
     */
    record InputImage(String imageUrl, String detail) implements ResponsesPart {
        public InputImage {
            Objects.requireNonNull(imageUrl, "imageUrl");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /** {@code input_file}: exactly one source is expected, checked by the reader. */
    record InputFile(Optional<String> fileId, Optional<String> fileData, Optional<String> fileUrl,
                     Optional<String> filename) implements ResponsesPart {
        public InputFile {
            Objects.requireNonNull(fileId, "fileId");
            Objects.requireNonNull(fileData, "fileData");
            Objects.requireNonNull(fileUrl, "fileUrl");
            Objects.requireNonNull(filename, "filename");
        }
    }

    /**
     * {@code output_text {text, annotations: [], logprobs}} of an assistant message; {@code logprobs} are
     * shown to a client that asked for them (never read from a caller's input, where they mean nothing).
     */
    record OutputText(String text, List<TokenLogprob> logprobs) implements ResponsesPart {
        public OutputText {
            Objects.requireNonNull(text, "text");
            logprobs = List.copyOf(logprobs);
        }

        public OutputText(String text) {
            this(text, List.of());
        }
    }

    /** {@code refusal {refusal}} of an assistant message. */
    record Refusal(String refusal) implements ResponsesPart {
        public Refusal {
            Objects.requireNonNull(refusal, "refusal");
        }
    }
}
