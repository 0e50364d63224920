package dev.switchboard.model;

/**
 * Who authored a {@link Message}. System instructions are not a role: they live in
 * {@link ChatRequest#system()}. Tool results are {@link ContentBlock.ToolResult} blocks in a USER
 * message, as in the messages and content-parts formats.
 */
public enum Role {
    USER,
    ASSISTANT
}
