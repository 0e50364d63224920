package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The names of what a request carries that an upstream writer leaves out, for the response header that says
 * so: pass-through fields of another format (their meaning is that format's) unless the writer takes them,
 * and tools' pass-through fields ({@code defer_loading}...) of another format. A pass-through object whose
 * canonical part was carried ({@code reasoning} with {@code context}) is named by its parts
 * ({@code reasoning.context}).
 */
public final class NotCarried {
    /** Pass-through objects that refine a field the canonical request models: their parts are what is lost. */
    private static final Set<String> REFINING = Set.of("reasoning", "thinking", "output_config", "text", "generationConfig");

    private NotCarried() {
    }

    /**
     * What {@code request} carries for formats other than {@code format}, less what {@code taken} says the
     * writer sends anyway (given the field's format and name), in order, each name once.
     */
    public static List<String> foreign(ChatRequest request, String format, BiPredicate<String, String> taken) {
        Set<String> out = new LinkedHashSet<>();
        String origin = request.passthrough().format();
        if (!origin.equals(format)) {
            for (Map.Entry<String, JsonNode> e : request.passthrough().fields().entrySet()) {
                if (!taken.test(origin, e.getKey())) {
                    out.addAll(names(e.getKey(), e.getValue()));
                }
            }
        }
        for (ToolSpec t : request.tools()) {
            if (!t.passthrough().format().equals(format)) {
                t.passthrough().fields().keySet().forEach(k -> out.add("tools[]." + k));
            }
        }
        return new ArrayList<>(out);
    }

    /** {@code name}, the parts of a refining object, or the kinds of tools in a tool list ({@code tools[].googleSearch}). */
    public static List<String> names(String name, JsonNode value) {
        if (name.equals("tools") && value.isArray()) {
            Set<String> kinds = new LinkedHashSet<>();
            for (JsonNode tool : value) {
                if (tool.path("type").isTextual()) {
                    kinds.add("tools[]." + tool.path("type").textValue());
                } else {
                    tool.fieldNames().forEachRemaining(k -> kinds.add("tools[]." + k));
                }
            }
            return new ArrayList<>(kinds);
        }
        if (REFINING.contains(name) && value.isObject() && !value.isEmpty()) {
            List<String> parts = new ArrayList<>();
            value.fieldNames().forEachRemaining(p -> parts.add(name + "." + p));
            return parts;
        }
        return List.of(name);
    }
}
