package dev.switchboard.model;

import java.util.List;
import java.util.Objects;

/** One turn of a conversation. Consecutive turns of the same role are allowed; translators merge them where a format requires. */
public record Message(Role role, List<ContentBlock> content) {
    public Message {
        Objects.requireNonNull(role, "role");
        content = List.copyOf(content);
    }

    public static Message user(String text) {
        return new Message(Role.USER, List.of(ContentBlock.Text.of(text)));
    }

    public static Message assistant(String text) {
        return new Message(Role.ASSISTANT, List.of(ContentBlock.Text.of(text)));
    }

    /** The concatenated text of the text blocks. */
    public String text() {
        return ContentBlock.textOf(content);
    }
}
