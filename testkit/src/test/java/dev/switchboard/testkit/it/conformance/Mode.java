package dev.switchboard.testkit.it.conformance;

import java.util.Locale;

/** Whether the client asks for the whole answer at once or for the format's stream. */
enum Mode {
    PLAIN("one JSON answer"),
    STREAMED("the format's own stream");

    final String description;

    Mode(String description) {
        this.description = description;
    }

    /** The heading of the mode's half of the matrix: its name, capitalised. */
    String title() {
        return name().charAt(0) + name().substring(1).toLowerCase(Locale.ROOT);
    }

    boolean streamed() {
        return this == STREAMED;
    }
}
