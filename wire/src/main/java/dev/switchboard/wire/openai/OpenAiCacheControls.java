package dev.switchboard.wire.openai;

import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.optObject;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ContentBlock;
import java.util.Optional;

/**
 * Reads the Anthropic-style {@code cache_control: {type: ephemeral, ttl?}} that OpenAI-format clients of
 * Claude-capable gateways put on content parts, messages and tools. OpenAI itself caches automatically,
 * so the upstream writer drops the markers; they only matter when the request goes to a provider with
 * explicit caching.
 */
final class OpenAiCacheControls {
    private OpenAiCacheControls() {
    }

    /** The marker in {@code owner.cache_control}, if any; {@code ownerPath} is the owner's JSON path. */
    static Optional<CacheMarker> read(JsonNode owner, String ownerPath) {
        String p = path(ownerPath, "cache_control");
        Optional<ObjectNode> cc = optObject(owner, "cache_control", p);
        if (cc.isEmpty()) {
            return Optional.empty();
        }
        String type = optString(cc.get(), "type", path(p, "type")).orElse("ephemeral");
        if (!type.equals("ephemeral")) {
            throw invalid(path(p, "type"), "`" + path(p, "type") + "` must be \"ephemeral\", got \"" + type + "\".");
        }
        Optional<String> ttl = optString(cc.get(), "ttl", path(p, "ttl"));
        if (ttl.isEmpty() || ttl.get().equals("5m")) {
            return Optional.of(CacheMarker.FIVE_MINUTES);
        }
        if (ttl.get().equals("1h")) {
            return Optional.of(CacheMarker.ONE_HOUR);
        }
        throw invalid(path(p, "ttl"), "`" + path(p, "ttl") + "` must be \"5m\" or \"1h\", got \"" + ttl.get() + "\".");
    }

    /**
     * The block with the marker applied, for the block kinds that carry one; other kinds are returned
     * unchanged (a marker on a message whose last block is a tool call has nowhere to go).
     */
    static ContentBlock apply(ContentBlock block, CacheMarker marker) {
        return switch (block) {
            case ContentBlock.Text t -> t.withCache(Optional.of(marker));
            case ContentBlock.Image i -> new ContentBlock.Image(i.source(), i.detail(), Optional.of(marker));
            case ContentBlock.Document d -> new ContentBlock.Document(d.source(), d.title(), Optional.of(marker));
            case ContentBlock.ToolResult r ->
                    new ContentBlock.ToolResult(r.callId(), r.name(), r.content(), r.isError(), Optional.of(marker));
            default -> block;
        };
    }
}
