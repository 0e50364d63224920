package dev.switchboard.testkit;

/** A scripted answer and what it costs. */
record Reply(Answer answer, Usage usage) {
}
