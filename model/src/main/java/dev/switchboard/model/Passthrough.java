package dev.switchboard.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Request fields the canonical model does not model (e.g. OpenAI {@code logprobs}, {@code seed} variants,
 * {@code service_tier}), kept with the name of the format they came from. An upstream translator of the
 * same format sends them on unchanged; every other translator ignores them, because their meaning is
 * format-specific.
 */
public record Passthrough(String format, Map<String, JsonNode> fields) {
    public static final Passthrough NONE = new Passthrough("", Map.of());

    public Passthrough {
        Objects.requireNonNull(format, "format");
        fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** The fields to send to an upstream speaking {@code upstreamFormat}; empty for any other format. */
    public Map<String, JsonNode> forFormat(String upstreamFormat) {
        return format.equals(upstreamFormat) ? fields : Map.of();
    }
}
