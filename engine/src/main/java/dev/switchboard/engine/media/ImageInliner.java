package dev.switchboard.engine.media;

import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Before each upstream attempt, replaces the image URLs that the attempt's provider type cannot take
 * ({@link ImageSourcePolicy}) with the bytes, fetched through the guarded {@link ImageFetcher}. Images in
 * messages and inside tool results are covered. Each URL is fetched at most once per request: a failover
 * to another provider that needs bytes reuses them.
 *
 * <p>A URL that cannot or may not be fetched (internal address, not an image, too large, too slow) is the
 * caller's mistake: a 400 with {@code param: "messages"} whose message says what was wrong with the URL.
 * The canonical request no longer knows where in the client's body the image was (formats split out
 * system turns and merge tool turns), so the param is the {@code messages} field as a whole and the
 * message names the image by its position and host.
 */
public final class ImageInliner {
    private final ImageFetcher fetcher;

    public ImageInliner(ImageFetcher fetcher) {
        this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
    }

    /** The attempt preparation for one request (it remembers what it fetched). Not thread-safe. */
    public UnaryOperator<Attempt> forRequest() {
        Map<String, MediaSource.Base64> fetched = new HashMap<>();
        return attempt -> {
            ChatRequest request = attempt.request();
            ChatRequest inlined = inline(request, attempt.provider().type(), fetched);
            return inlined == request ? attempt : attempt.withRequest(inlined);
        };
    }

    /** {@code request} with the images {@code type} needs as bytes inlined; the same instance when there are none. */
    ChatRequest inline(ChatRequest request, ProviderType type, Map<String, MediaSource.Base64> fetched) {
        if (!needsAny(request.messages(), type)) {
            return request;
        }
        int[] ordinal = {0};
        List<Message> messages = new ArrayList<>(request.messages().size());
        for (Message m : request.messages()) {
            messages.add(new Message(m.role(), blocks(m.content(), type, fetched, ordinal)));
        }
        return request.toBuilder().messages(messages).build();
    }

    private static boolean needsAny(List<Message> messages, ProviderType type) {
        for (Message m : messages) {
            for (ContentBlock b : m.content()) {
                if (needs(b, type) || b instanceof ContentBlock.ToolResult r && r.content().stream().anyMatch(c -> needs(c, type))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean needs(ContentBlock b, ProviderType type) {
        return b instanceof ContentBlock.Image i && i.source() instanceof MediaSource.Url u
                && ImageSourcePolicy.needsBytes(type, u);
    }

    private List<ContentBlock> blocks(List<ContentBlock> content, ProviderType type,
                                      Map<String, MediaSource.Base64> fetched, int[] ordinal) {
        List<ContentBlock> out = new ArrayList<>(content.size());
        for (ContentBlock b : content) {
            switch (b) {
                case ContentBlock.Image i -> {
                    ordinal[0]++;
                    if (i.source() instanceof MediaSource.Url u && ImageSourcePolicy.needsBytes(type, u)) {
                        out.add(new ContentBlock.Image(fetch(u.url(), ordinal[0], fetched), i.detail(), i.cache()));
                    } else {
                        out.add(b);
                    }
                }
                case ContentBlock.ToolResult r -> out.add(new ContentBlock.ToolResult(r.callId(), r.name(),
                        blocks(r.content(), type, fetched, ordinal), r.isError(), r.cache()));
                default -> out.add(b);
            }
        }
        return out;
    }

    private MediaSource.Base64 fetch(String url, int ordinal, Map<String, MediaSource.Base64> fetched) {
        MediaSource.Base64 known = fetched.get(url);
        if (known != null) {
            return known;
        }
        try {
            MediaSource.Base64 image = fetcher.fetch(url);
            fetched.put(url, image);
            return image;
        } catch (ImageFetchException e) {
            throw GatewayError.invalid("messages", "Image " + ordinal + " of the conversation (" + origin(url)
                    + ") cannot be used: " + e.getMessage() + ".").toException();
        }
    }

    /** Scheme and host of a URL, never its path or query (they may carry tokens). */
    private static String origin(String url) {
        try {
            URI uri = new URI(url);
            if (uri.getScheme() != null && uri.getHost() != null) {
                return uri.getScheme() + "://" + uri.getHost();
            }
        } catch (java.net.URISyntaxException e) {
            // fall through
        }
        return "an unreadable URL";
    }
}
