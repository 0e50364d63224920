package dev.switchboard.wire.internal;

import dev.switchboard.model.MediaSource;
import java.util.Locale;

/**
 * Checks of media a client sends inline, the same in every format, so that a broken image is a 400 naming
 * the field before any upstream is called (an upstream would refuse it anyway, after the caller waited): the
 * data must be standard, padded base64, and an image's media type must be an image type.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class InlineMedia {
    private InlineMedia() {
    }

    /** An image given as a media type and base64 data, each named by its own field. */
    public static MediaSource.Base64 image(String mediaType, String data, String typePath, String dataPath) {
        if (!isImageType(mediaType)) {
            throw JsonFields.invalid(typePath, "`" + typePath + "` must be an image media type such as image/png, "
                    + "image/jpeg, image/gif or image/webp; got \"" + brief(mediaType) + "\".");
        }
        requireBase64(data, dataPath);
        return new MediaSource.Base64(mediaType, data);
    }

    /** An image given as a {@code data:<media type>;base64,<data>} URL in the field {@code path}. */
    public static MediaSource.Base64 imageDataUrl(String url, String path) {
        MediaSource.Base64 b = dataUrl(url, path);
        if (!isImageType(b.mediaType())) {
            throw JsonFields.invalid(path, "`" + path + "` must hold an image: its media type is \"" + brief(b.mediaType())
                    + "\", not an image type such as image/png or image/jpeg.");
        }
        return b;
    }

    /** Any {@code data:<media type>;base64,<data>} URL in the field {@code path}, with valid base64. */
    public static MediaSource.Base64 dataUrl(String url, String path) {
        if (!(MediaSource.fromUrl(url) instanceof MediaSource.Base64 b) || b.mediaType().isBlank()) {
            throw JsonFields.invalid(path, "`" + path + "` data URLs must have the form data:<media type>;base64,<data>.");
        }
        requireBase64(b.data(), path);
        return b;
    }

    /** Refuses data that is not standard base64 with padding ({@code A-Z a-z 0-9 + /}, then up to two {@code =}). */
    public static void requireBase64(String data, String path) {
        if (!isBase64(data)) {
            throw JsonFields.invalid(path, "`" + path + "` is not valid base64 (standard alphabet A-Z a-z 0-9 + /, padded "
                    + "with = to a multiple of 4 characters, no spaces or line breaks).");
        }
    }

    static boolean isBase64(String s) {
        int n = s.length();
        if (n == 0 || n % 4 != 0) {
            return false;
        }
        int padding = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '=') {
                padding++;
                if (i < n - 2) {
                    return false;
                }
            } else if (padding > 0 || !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/')) {
                return false;
            }
        }
        return padding <= 2;
    }

    private static boolean isImageType(String mediaType) {
        String m = mediaType.strip().toLowerCase(Locale.ROOT);
        return m.startsWith("image/") && m.length() > "image/".length();
    }

    private static String brief(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
