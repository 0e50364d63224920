package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.wire.responses.Responses;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Encrypted reasoning that its upstream no longer accepts. A Responses upstream can read only the
 * encrypted reasoning its own organisation issued: after a key of another organisation answered the
 * previous turn (keys rotate), or after the provider rotated its keys, it answers 400 "The encrypted
 * content ... could not be verified" ({@code invalid_encrypted_content}). The conversation is still good
 * without those traces, so the attempt is retried exactly once on the same target without them, the same
 * way a refused prefill is.
 */
final class ReasoningReplayRewrite {
    private ReasoningReplayRewrite() {
    }

    /** A Responses upstream's refusal of replayed encrypted reasoning. */
    static boolean isRejection(ProviderType type, UpstreamFailure f) {
        if (type != ProviderType.OPENAI_RESPONSES || f.kind() != UpstreamFailure.Kind.HTTP_STATUS || f.status() != 400) {
            return false;
        }
        String m = f.upstreamError().message().toLowerCase(Locale.ROOT);
        return m.contains("encrypted content") && (m.contains("could not be verified") || m.contains("could not be decrypted"));
    }

    /** Whether the request replays any encrypted reasoning of the Responses format. */
    static boolean replaysReasoning(ChatRequest request) {
        return request.messages().stream().flatMap(m -> m.content().stream()).anyMatch(ReasoningReplayRewrite::replayed);
    }

    static ChatRequest rewrite(ChatRequest request) {
        List<Message> messages = new ArrayList<>();
        for (Message m : request.messages()) {
            List<ContentBlock> kept = m.content().stream().filter(b -> !replayed(b)).toList();
            if (!kept.isEmpty()) {
                messages.add(new Message(m.role(), kept));
            }
        }
        return request.toBuilder().messages(messages).build();
    }

    private static boolean replayed(ContentBlock b) {
        return b instanceof ContentBlock.Thinking t && t.signature().filter(s -> s.isFrom(Responses.FORMAT)).isPresent()
                || b instanceof ContentBlock.RedactedThinking r && r.origin().equals(Responses.FORMAT);
    }
}
