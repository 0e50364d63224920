package dev.switchboard.testkit.it.conformance;

/** Whether the client asks for the whole answer at once or for the format's stream. */
enum Mode {
    PLAIN("Plain", "one JSON answer"),
    STREAMED("Streamed", "the format's own stream");

    final String title;
    final String description;

    Mode(String title, String description) {
        this.title = title;
        this.description = description;
    }

    boolean streamed() {
        return this == STREAMED;
    }
}
