package dev.switchboard.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;

/**
 * A client-defined function the model may call. {@code parameters} is a JSON Schema object.
 * {@code passthrough} holds the tool's fields the canonical model does not model (the messages format's
 * {@code defer_loading}, {@code input_examples}...), for an upstream of the format they came from.
 * {@code freeform} is present for a tool whose input is free text rather than JSON arguments (the Responses
 * format's {@code custom} tool): its {@code parameters} then describe that text as the one string argument
 * {@link Freeform#ARGUMENT}, which is how its calls travel in the canonical model and to upstreams without
 * such tools.
 */
public record ToolSpec(String name, Optional<String> description, JsonNode parameters, Optional<Boolean> strict,
                       Optional<CacheMarker> cache, Passthrough passthrough, Optional<Freeform> freeform) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(strict, "strict");
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(passthrough, "passthrough");
        Objects.requireNonNull(freeform, "freeform");
    }

    /** A function tool (JSON arguments) with unmodelled fields. */
    public ToolSpec(String name, Optional<String> description, JsonNode parameters, Optional<Boolean> strict,
                    Optional<CacheMarker> cache, Passthrough passthrough) {
        this(name, description, parameters, strict, cache, passthrough, Optional.empty());
    }

    /** A function tool (JSON arguments) without unmodelled fields. */
    public ToolSpec(String name, Optional<String> description, JsonNode parameters, Optional<Boolean> strict,
                    Optional<CacheMarker> cache) {
        this(name, description, parameters, strict, cache, Passthrough.NONE, Optional.empty());
    }

    /** The same tool under another name. */
    public ToolSpec withName(String newName) {
        return new ToolSpec(newName, description, parameters, strict, cache, passthrough, freeform);
    }

    /**
     * The input of a free-text tool and what constrains it. {@code format} is the client's format exactly:
     * empty when it sent none, {@link Format.Text} for {@code {type: "text"}}, {@link Format.Grammar} for a
     * grammar; a call's text is the string argument {@link #ARGUMENT} of its canonical arguments.
     */
    public record Freeform(Optional<Format> format) {
        /** The one argument that holds a free-text call's input in the canonical arguments. */
        public static final String ARGUMENT = "input";

        public Freeform {
            Objects.requireNonNull(format, "format");
        }

        /** How the free text is constrained. */
        public sealed interface Format {
            /** Unconstrained text, stated as such. */
            record Text() implements Format {
            }

            /** Text that must match {@code definition}, written in {@code syntax} (e.g. {@code lark}, {@code regex}). */
            record Grammar(String syntax, String definition) implements Format {
                public Grammar {
                    Objects.requireNonNull(syntax, "syntax");
                    Objects.requireNonNull(definition, "definition");
                }
            }
        }
    }
}
