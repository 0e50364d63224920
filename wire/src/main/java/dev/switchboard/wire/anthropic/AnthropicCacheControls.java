package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.JsonFields;
import java.util.Optional;

/**
 * {@code cache_control: {type: "ephemeral", ttl?: "5m" | "1h"}} both ways, and the per-request count of
 * breakpoints (spec 8: at most 4, over tools, system and messages together).
 */
final class AnthropicCacheControls {
    static final int MAX_BREAKPOINTS = 4;

    private AnthropicCacheControls() {
    }

    /** The marker a block's JSON carries, validated and counted; {@code path} is the block's path. */
    static Optional<CacheMarker> read(JsonNode block, String path, Breakpoints breakpoints) {
        Optional<JsonNode> raw = JsonFields.opt(block, "cache_control");
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        String at = JsonFields.path(path, "cache_control");
        JsonNode cc = JsonFields.requireObject(raw.get(), at);
        String type = JsonFields.requireString(cc, "type", JsonFields.path(at, "type"));
        if (!type.equals("ephemeral")) {
            throw JsonFields.invalid(JsonFields.path(at, "type"),
                    "`" + JsonFields.path(at, "type") + "` must be \"ephemeral\", got \"" + type + "\".");
        }
        CacheMarker marker = JsonFields.optString(cc, "ttl", JsonFields.path(at, "ttl"))
                .map(ttl -> switch (ttl) {
                    case "5m" -> CacheMarker.FIVE_MINUTES;
                    case "1h" -> CacheMarker.ONE_HOUR;
                    default -> throw JsonFields.invalid(JsonFields.path(at, "ttl"),
                            "`" + JsonFields.path(at, "ttl") + "` must be \"5m\" or \"1h\", got \"" + ttl + "\".");
                })
                .orElse(CacheMarker.FIVE_MINUTES);
        breakpoints.add(at);
        return Optional.of(marker);
    }

    /** Adds {@code cache_control} to {@code block} when there is a marker; the 5-minute default has no ttl. */
    static void put(ObjectNode block, Optional<CacheMarker> marker) {
        marker.ifPresent(m -> block.set("cache_control", write(m)));
    }

    static ObjectNode write(CacheMarker marker) {
        ObjectNode cc = Json.object().put("type", "ephemeral");
        if (marker.ttl() == CacheMarker.Ttl.ONE_HOUR) {
            cc.put("ttl", marker.ttl().wire());
        }
        return cc;
    }

    /** Counts breakpoints while a request is read; the one past the limit names its own path. */
    static final class Breakpoints {
        private int count;

        void add(String path) {
            count++;
            if (count > MAX_BREAKPOINTS) {
                throw JsonFields.invalid(path, "A request may carry at most " + MAX_BREAKPOINTS
                        + " cache_control breakpoints (tools, system and messages together); `" + path
                        + "` is breakpoint " + count + ".");
            }
        }
    }
}
