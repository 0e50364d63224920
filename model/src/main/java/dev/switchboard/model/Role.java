package dev.switchboard.model;

/**
 * Who authored a {@link Message}. The system prompt is not a turn: it lives in {@link ChatRequest#system()}.
 * Tool results are {@link ContentBlock.ToolResult} blocks in a USER message, as in the messages and
 * content-parts formats.
 */
public enum Role {
    USER,
    ASSISTANT,
    /**
     * A system entry between turns (the messages format lets clients put {@code role: "system"} inside
     * {@code messages}, as Claude Code does), kept where it stands: its position matters to the model and to
     * prompt caching. It holds text blocks only. Upstreams with system turns get one in place; the others
     * get its text with their system prompt.
     */
    SYSTEM
}
