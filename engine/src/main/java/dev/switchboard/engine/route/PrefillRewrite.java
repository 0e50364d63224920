package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Assistant prefill for providers that refuse it (spec 2.2: "retries once with a compatible rewrite").
 * Newer models answer a conversation ending in an assistant turn with a 400 naming prefill; the rewrite
 * moves the partial answer into a final user turn that asks for its continuation only, so the answer
 * has the same shape as a native prefill's: the continuation, without the prefix.
 *
 * <p>The Responses API has no prefill at all: it answers a trailing assistant message with a new turn
 * instead of continuing it, without an error to react to. Upstreams of that type get the rewrite at once.
 */
final class PrefillRewrite {
    private PrefillRewrite() {
    }

    /** Whether a {@code type} upstream must get the rewrite before its first attempt (it would silently not continue). */
    static boolean upfront(ProviderType type) {
        return type == ProviderType.OPENAI_RESPONSES;
    }

    /** A provider's refusal of native prefill (a 400 whose message talks about prefill). */
    static boolean isRejection(UpstreamFailure f) {
        return f.kind() == UpstreamFailure.Kind.HTTP_STATUS && f.status() == 400
                && f.upstreamError().message().toLowerCase(Locale.ROOT).contains("prefill");
    }

    static ChatRequest rewrite(ChatRequest request) {
        List<Message> messages = new ArrayList<>(request.messages());
        Message partial = messages.removeLast();
        String prefix = partial.text();
        messages.add(new Message(Role.USER, List.of(ContentBlock.Text.of(
                "Your answer so far is between the markers below. Continue it exactly where it stops. Reply with the "
                        + "continuation only: do not repeat any of it, do not add quotes or commentary.\n"
                        + "<answer_so_far>" + prefix + "</answer_so_far>"))));
        return request.toBuilder().messages(messages).build();
    }
}
