package dev.switchboard.model;

import java.util.Objects;

/** Where the bytes of an image or document are: a URL to fetch, inline base64, plain text, or a provider file id. */
public sealed interface MediaSource {

    /** An http(s) URL. Providers that need bytes get them through the gateway's guarded fetcher. */
    record Url(String url) implements MediaSource {
        public Url {
            Objects.requireNonNull(url, "url");
        }
    }

    /** Inline bytes, base64 encoded (standard alphabet), with their media type (e.g. {@code image/png}). */
    record Base64(String mediaType, String data) implements MediaSource {
        public Base64 {
            Objects.requireNonNull(mediaType, "mediaType");
            Objects.requireNonNull(data, "data");
        }

        /** The {@code data:} URL form that the chat-completions format uses. */
        public String dataUrl() {
            return "data:" + mediaType + ";base64," + data;
        }
    }

    /** A plain-text document body. */
    record PlainText(String text) implements MediaSource {
        public PlainText {
            Objects.requireNonNull(text, "text");
        }
    }

    /** A file previously uploaded to a provider; only that provider can resolve it. */
    record FileRef(String fileId, String mediaType) implements MediaSource {
        public FileRef {
            Objects.requireNonNull(fileId, "fileId");
            Objects.requireNonNull(mediaType, "mediaType");
        }
    }

    /**
     * Parses a {@code data:<media type>;base64,<data>} URL; anything else is a {@link Url}.
     */
    static MediaSource fromUrl(String url) {
        if (url.startsWith("data:")) {
            int comma = url.indexOf(',');
            int semi = url.indexOf(";base64");
            if (comma > 0 && semi > 0 && semi < comma) {
                return new Base64(url.substring(5, semi), url.substring(comma + 1));
            }
        }
        return new Url(url);
    }
}
