package dev.switchboard.engine.media;

import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.model.MediaSource;
import java.net.URI;
import java.util.Locale;

/**
 * Which image URLs a provider type can take as they are, and which the gateway must fetch and send as
 * bytes. Consulted before every upstream call ({@link ImageInliner}) and by dialects that need to know
 * what they will be handed.
 *
 * <ul>
 *   <li>OpenAI-compatible upstreams (chat completions and Responses) and Anthropic accept http(s) image URLs
 *       and fetch them themselves.
 *   <li>Gemini takes {@code fileData} URIs only for files Google hosts ({@code gs://}, the Gemini Files
 *       API); any other image must be sent as {@code inlineData}, so the gateway fetches it.
 *   <li>The simulator never looks at image bytes.
 * </ul>
 */
public final class ImageSourcePolicy {
    private ImageSourcePolicy() {
    }

    /** Whether an image at {@code url} must reach a {@code type} provider as bytes. */
    public static boolean needsBytes(ProviderType type, MediaSource.Url url) {
        return switch (type) {
            case OPENAI, OPENAI_RESPONSES, ANTHROPIC, SIMULATOR -> false;
            case GEMINI -> !googleHosted(url.url());
        };
    }

    private static boolean googleHosted(String url) {
        if (url.regionMatches(true, 0, "gs://", 0, 5)) {
            return true;
        }
        try {
            URI uri = URI.create(url);
            return "https".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null
                    && uri.getHost().toLowerCase(Locale.ROOT).equals("generativelanguage.googleapis.com")
                    && uri.getRawPath() != null && uri.getRawPath().contains("/files/");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
