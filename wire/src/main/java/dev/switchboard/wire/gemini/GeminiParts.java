package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.Media;
import dev.switchboard.wire.internal.ToolArguments;
import java.util.Locale;
import java.util.Optional;

/**
 * Builds Gemini parts from canonical pieces, for answers to clients and for requests to Google alike.
 * A signature is written on the very part it came with, never on a neighbour.
 */
final class GeminiParts {
    private GeminiParts() {
    }

    static ObjectNode text(String text, Optional<Signature> signature) {
        ObjectNode part = Json.object();
        part.put("text", text);
        GeminiSignatures.write(part, signature);
        return part;
    }

    static ObjectNode thought(String text, Optional<Signature> signature) {
        ObjectNode part = Json.object();
        part.put("text", text);
        part.put("thought", true);
        GeminiSignatures.write(part, signature);
        return part;
    }

    /** {@code functionCall {name, args, id}} with the call's Gemini signature beside it. */
    static ObjectNode functionCall(ToolCall call) {
        ObjectNode fc = Json.object();
        fc.put("name", call.name());
        fc.set("args", ToolArguments.object(call.argumentsJson()));
        fc.put("id", call.id());
        ObjectNode part = Json.object();
        part.set("functionCall", fc);
        GeminiSignatures.write(part, call.signature());
        return part;
    }

    /**
     * A media part: inline bytes as {@code inlineData}, URLs and provider files as {@code fileData}, a
     * plain-text document as a text part.
     */
    static ObjectNode media(MediaSource source) {
        ObjectNode part = Json.object();
        switch (source) {
            case MediaSource.Base64 b -> {
                ObjectNode d = part.putObject("inlineData");
                d.put("mimeType", b.mediaType());
                d.put("data", b.data());
            }
            case MediaSource.Url u -> {
                ObjectNode d = part.putObject("fileData");
                guessMimeType(u.url()).ifPresent(m -> d.put("mimeType", m));
                d.put("fileUri", u.url());
            }
            case MediaSource.FileRef f -> {
                if (!isGoogleFile(f.fileId())) {
                    throw Media.foreignFile(f.fileId(), "Gemini").toException();
                }
                ObjectNode d = part.putObject("fileData");
                if (!f.mediaType().isEmpty()) {
                    d.put("mimeType", f.mediaType());
                }
                d.put("fileUri", f.fileId());
            }
            case MediaSource.PlainText t -> part.put("text", t.text());
        }
        return part;
    }

    /** Files uploaded to Google (Files API, Cloud Storage): the only file ids a Gemini upstream can open. */
    static boolean isGoogleFile(String uri) {
        return uri.startsWith("gs://") || uri.contains("generativelanguage.googleapis.com/") && uri.contains("/files/")
                || uri.startsWith("files/");
    }

    /**
     * The media type a URL's file extension implies. Google wants a {@code mimeType} on {@code fileData};
     * canonical URL images carry none, so the extension is the best pure guess (empty when unknown).
     */
    static Optional<String> guessMimeType(String url) {
        String path = url;
        int cut = indexOfAny(path, '?', '#');
        if (cut >= 0) {
            path = path.substring(0, cut);
        }
        int dot = path.lastIndexOf('.');
        if (dot < 0 || dot < path.lastIndexOf('/')) {
            return Optional.empty();
        }
        return switch (path.substring(dot + 1).toLowerCase(Locale.ROOT)) {
            case "png" -> Optional.of("image/png");
            case "jpg", "jpeg" -> Optional.of("image/jpeg");
            case "gif" -> Optional.of("image/gif");
            case "webp" -> Optional.of("image/webp");
            case "heic" -> Optional.of("image/heic");
            case "pdf" -> Optional.of("application/pdf");
            case "txt" -> Optional.of("text/plain");
            default -> Optional.empty();
        };
    }

    private static int indexOfAny(String s, char a, char b) {
        int i = s.indexOf(a);
        int j = s.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }
}
