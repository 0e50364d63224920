package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How the tools of a Responses request that the canonical model has no word for become plain functions, and
 * back. A tool inside a {@code namespace} group is the function {@code <namespace>__<name>} (a name every
 * provider accepts: letters, digits, {@code _}, {@code -}); a {@code custom} tool (free text, optionally
 * constrained by a grammar) is a canonical free-text tool, whose calls carry their input as one string argument
 * ({@link dev.switchboard.wire.internal.FreeformTools}). Calls to them come back
 * to the client as the format says: {@code custom_tool_call} with {@code input}, and {@code namespace} on
 * calls of namespaced tools. The directory is read from the tools a response echoes, so a stored response
 * and a stream render alike.
 */
final class ResponsesToolNames {
    /** Joins a namespace and a tool name into one function name. */
    static final String SEPARATOR = "__";

    /** Where a canonical function came from. */
    record Origin(Optional<String> namespace, String name, boolean custom) {
    }

    private final Map<String, Origin> byFlatName;

    private ResponsesToolNames(Map<String, Origin> byFlatName) {
        this.byFlatName = Map.copyOf(byFlatName);
    }

    static String flat(Optional<String> namespace, String name) {
        return namespace.map(ns -> ns + SEPARATOR + name).orElse(name);
    }

    /** The directory of the tools a response echoes ({@code tools} of the request, in the request's shape). */
    static ResponsesToolNames fromEcho(JsonNode echoTools) {
        Map<String, Origin> out = new HashMap<>();
        for (JsonNode tool : echoTools) {
            String type = tool.path("type").asText("");
            if (type.equals("custom")) {
                String name = tool.path("name").asText();
                out.put(name, new Origin(Optional.empty(), name, true));
            } else if (type.equals("namespace")) {
                Optional<String> ns = Optional.of(tool.path("name").asText());
                for (JsonNode inner : tool.path("tools")) {
                    String name = inner.path("name").asText();
                    out.put(flat(ns, name), new Origin(ns, name, inner.path("type").asText("").equals("custom")));
                }
            }
        }
        return new ResponsesToolNames(out);
    }

    /** Where the canonical function {@code flatName} came from; empty for a plain function. */
    Optional<Origin> origin(String flatName) {
        return Optional.ofNullable(byFlatName.get(flatName));
    }
}
