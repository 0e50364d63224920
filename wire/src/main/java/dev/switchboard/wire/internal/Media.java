package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import java.util.Locale;
import java.util.Optional;

/**
 * Content that only some upstream formats can take, recognised the same way by every writer: a
 * chat-completions client's {@code input_audio} part, and a provider's file id that only that provider can
 * open. A writer whose upstream cannot take them refuses the request with a 400 that says so, rather than
 * sending the conversation without them.
 */
public final class Media {
    private Media() {
    }

    /** The chat-completions format's audio part ({@code {type: input_audio, input_audio: {data, format}}}), when {@code block} is one. */
    public static Optional<JsonNode> inputAudio(ContentBlock block) {
        return block instanceof ContentBlock.Opaque o && o.json().path("type").asText("").equals("input_audio")
                ? Optional.of(o.json().path("input_audio")) : Optional.empty();
    }

    /** The media type of an {@code input_audio} part ({@code wav} is {@code audio/wav}). */
    public static String audioMediaType(JsonNode inputAudio) {
        String format = inputAudio.path("format").asText("wav").toLowerCase(Locale.ROOT);
        return "audio/" + (format.equals("mp3") ? "mpeg" : format);
    }

    /** The 400 for audio input toward an upstream that takes none. */
    public static GatewayError audioRefused(String upstream) {
        return GatewayError.invalid("messages", "Audio input (an `input_audio` part) cannot be sent to this model's "
                + upstream + " provider, which takes no audio; send it to a model served by an OpenAI or Gemini provider, "
                + "or send a transcript.");
    }

    /** The 400 for a file id that only another provider can open. */
    public static GatewayError foreignFile(String fileId, String upstream) {
        return GatewayError.invalid("messages", "The file \"" + fileId + "\" is a file id stored at another provider; this "
                + "model's " + upstream + " provider cannot open it. Send the file's content (file_data) instead.");
    }
}
