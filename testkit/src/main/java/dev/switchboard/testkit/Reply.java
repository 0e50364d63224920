package dev.switchboard.testkit;

/** A scripted answer and what it costs. */
record Reply(ScriptedAnswer answer, ScriptedUsage usage) {
}
