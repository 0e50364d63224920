package dev.switchboard.engine.tokens;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.ToolSpec;
import java.util.List;

/**
 * Estimates token counts at about four characters per token (the rule the spec documents for
 * {@code count_tokens}). Used where no upstream count exists: the simulator, cut streams, admission.
 * Images and documents count a flat amount, since their real cost depends on the provider.
 */
public final class TokenEstimator {
    private static final int IMAGE_TOKENS = 765;
    private static final int DOCUMENT_TOKENS = 1500;

    private TokenEstimator() {
    }

    /** Tokens of {@code chars} characters of text: ceil(chars / 4). */
    public static long ofChars(long chars) {
        return (chars + 3) / 4;
    }

    public static long ofText(String text) {
        return ofChars(text.length());
    }

    /** The prompt of a request: system, messages and tool definitions. */
    public static long ofPrompt(ChatRequest request) {
        Tally tally = new Tally();
        tally.add(request.system());
        for (Message m : request.messages()) {
            tally.add(m.content());
        }
        for (ToolSpec t : request.tools()) {
            tally.chars += t.name().length() + t.description().map(String::length).orElse(0) + t.parameters().toString().length();
        }
        return tally.tokens();
    }

    /** One message on its own (rounded up on its own, so a sum over messages never underestimates {@link #ofPrompt}). */
    public static long ofMessage(Message m) {
        Tally tally = new Tally();
        tally.add(m.content());
        return tally.tokens();
    }

    /** Text characters and flat-rated tokens counted apart, so that the characters are rounded to tokens once. */
    private static final class Tally {
        long chars;
        long flat;

        void add(List<ContentBlock> blocks) {
            for (ContentBlock b : blocks) {
                chars += chars(b);
                flat += flat(b);
            }
        }

        long tokens() {
            return ofChars(chars) + flat;
        }
    }

    private static long chars(ContentBlock b) {
        return switch (b) {
            case ContentBlock.Text t -> t.text().length();
            case ContentBlock.Refusal r -> r.text().length();
            case ContentBlock.ToolCall c -> c.name().length() + c.argumentsJson().length();
            case ContentBlock.ToolResult r -> {
                long n = 0;
                for (ContentBlock inner : r.content()) {
                    n += chars(inner);
                }
                yield n;
            }
            case ContentBlock.Thinking t -> t.text().length();
            default -> 0;
        };
    }

    private static long flat(ContentBlock b) {
        return switch (b) {
            case ContentBlock.Image i -> IMAGE_TOKENS;
            case ContentBlock.Document d -> DOCUMENT_TOKENS;
            case ContentBlock.ToolResult r -> r.content().stream().mapToLong(TokenEstimator::flat).sum();
            default -> 0;
        };
    }
}
