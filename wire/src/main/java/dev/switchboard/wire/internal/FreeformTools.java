package dev.switchboard.wire.internal;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ToolSpec.Freeform;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import java.util.Optional;

/**
 * Free-text tools ({@link ToolSpec#freeform()}, the Responses format's {@code custom} tools) as functions
 * taking one string argument, {@link Freeform#ARGUMENT}: how their calls travel in the canonical model, and
 * how an upstream without free-text tools sees them. Such an upstream gets the tool's description followed by
 * a line saying the input is free text, and the grammar (syntax and definition) when the tool has one, so the
 * model still knows what to write.
 */
public final class FreeformTools {
    private static final String OPEN = "{\"" + Freeform.ARGUMENT + "\":\"";
    private static final String CLOSE = "\"}";

    private FreeformTools() {
    }

    /** The schema of a free-text tool's arguments: one required string. */
    public static ObjectNode parameters() {
        ObjectNode p = Json.object();
        p.put("type", "object");
        p.putObject("properties").putObject(Freeform.ARGUMENT).put("type", "string")
                .put("description", "The tool's whole input, as free text.");
        p.putArray("required").add(Freeform.ARGUMENT);
        p.put("additionalProperties", false);
        return p;
    }

    /**
     * The description an upstream without free-text tools gets: the tool's own for a function tool; for a
     * free-text tool, its own then how to pass the input and the grammar it must match.
     */
    public static Optional<String> functionDescription(ToolSpec t) {
        if (t.freeform().isEmpty()) {
            return t.description();
        }
        StringBuilder sb = new StringBuilder(t.description().orElse(""));
        if (!sb.isEmpty()) {
            sb.append("\n\n");
        }
        sb.append("Call this tool with its whole input as the string argument `").append(Freeform.ARGUMENT)
                .append("` (free text, not JSON).");
        if (t.freeform().get().format().orElse(null) instanceof Freeform.Format.Grammar g) {
            sb.append(" The input must match this ").append(g.syntax()).append(" grammar:\n").append(g.definition());
        }
        return Optional.of(sb.toString());
    }

    /** A free-text input as the canonical arguments of its call. */
    public static String argumentsOf(String input) {
        return OPEN + escaped(input) + CLOSE;
    }

    /**
     * The free-text input inside a call's canonical arguments. Arguments that are not the expected object (a
     * model that ignored the schema) are passed on whole rather than lost.
     */
    public static String inputOf(String argumentsJson) {
        try {
            JsonNode input = Json.parse(argumentsJson).path(Freeform.ARGUMENT);
            return input.isTextual() ? input.textValue() : argumentsJson;
        } catch (RuntimeException notJson) {
            return argumentsJson;
        }
    }

    /**
     * The canonical arguments of a streamed free-text input, piece by piece: {@link #opening} before the first
     * piece, each piece {@link #escaped}, {@link #closing} after the last; together they are
     * {@link #argumentsOf} the whole input.
     */
    public static String opening() {
        return OPEN;
    }

    /** See {@link #opening}. */
    public static String closing() {
        return CLOSE;
    }

    /** A piece of free text as it stands inside a JSON string. */
    public static String escaped(String text) {
        return new String(JsonStringEncoder.getInstance().quoteAsString(text));
    }
}
