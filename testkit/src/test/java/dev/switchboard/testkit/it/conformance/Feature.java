package dev.switchboard.testkit.it.conformance;

import java.util.Locale;

/**
 * What one cell of the matrix asks for. Each feature has its own gateway model per upstream kind, flagged
 * for exactly that feature ({@link MatrixConfig}).
 */
enum Feature {
    /** A plain question: the fake's echo comes back as text, with usage. */
    TEXT("text answer"),
    /** One offered function: the answer is a call to it with JSON-object arguments. */
    TOOLS("function calling"),
    /** The client format's own reasoning control: the answer carries a trace in the format's reasoning field. */
    REASONING("reasoning trace"),
    /** A base64 PNG beside the question: it reaches the upstream as that upstream's native image part. */
    IMAGE("image input"),
    /** The client format's schema-less JSON mode: it reaches the upstream natively and the answer is JSON. */
    JSON("JSON mode"),
    /** Structured output with a JSON Schema: the schema reaches the upstream natively, the answer fits it. */
    SCHEMA("JSON Schema output");

    final String title;

    Feature(String title) {
        this.title = title;
    }

    /** The feature's word in gateway model ids and cell names: its name in lower case. */
    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The segment naming this feature in upstream model names. Not {@code reasoning}: that suffix would
     * make the fake reason unasked, and the cell must prove the client's control reached the upstream.
     */
    String upstreamSegment() {
        return this == REASONING ? "think" : id();
    }
}
