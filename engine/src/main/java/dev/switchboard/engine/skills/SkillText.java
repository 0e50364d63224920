package dev.switchboard.engine.skills;

import dev.switchboard.engine.extend.RewriteRule;
import dev.switchboard.engine.extend.RuleTarget;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import java.util.ArrayList;
import java.util.List;

/**
 * The text a skill stack changes: its system prompts go before the caller's system text, in stack order, each
 * its own block (a stable prefix, so the caller's cache markers after it keep matching); then each skill's rules
 * run in order over the caller's text.
 *
 * <p>The caller's text is the text blocks of user messages, nothing else: never the system text, an assistant
 * turn (a prefill stays exactly as sent), a tool's definition or a tool result. {@code last_user} is the last
 * user message that holds text (in a tool loop that is the caller's question, not the latest tool results),
 * {@code all_user} every such message. A {@code replace} works on every text block of a target message, a
 * {@code prepend} on its first text block, an {@code append} on its last.
 */
public final class SkillText {
    private SkillText() {
    }

    /** {@code request} with the stack's system prompts and rules applied. */
    public static ChatRequest apply(ChatRequest request, List<StackedSkill> stack) {
        List<ContentBlock> system = new ArrayList<>();
        for (StackedSkill s : stack) {
            s.body().systemPrompt().ifPresent(p -> system.add(ContentBlock.Text.of(p)));
        }
        system.addAll(request.system());
        List<Message> messages = new ArrayList<>(request.messages());
        for (StackedSkill s : stack) {
            for (RewriteRule rule : s.body().rules()) {
                rewrite(messages, rule, s);
            }
        }
        return request.toBuilder().system(system).messages(messages).build();
    }

    private static void rewrite(List<Message> messages, RewriteRule rule, StackedSkill skill) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            Message m = messages.get(i);
            if (m.role() != Role.USER || m.content().stream().noneMatch(b -> b instanceof ContentBlock.Text)) {
                continue;
            }
            messages.set(i, rewrite(m, rule, skill));
            if (rule.target() == RuleTarget.LAST_USER) {
                return;
            }
        }
    }

    private static Message rewrite(Message m, RewriteRule rule, StackedSkill skill) {
        List<ContentBlock> content = new ArrayList<>(m.content());
        boolean hadContent = !blank(content);
        int first = -1;
        int last = -1;
        for (int i = 0; i < content.size(); i++) {
            if (content.get(i) instanceof ContentBlock.Text) {
                first = first < 0 ? i : first;
                last = i;
            }
        }
        for (int i = first; i <= last; i++) {
            boolean applies = switch (rule) {
                case RewriteRule.Replace r -> true;
                case RewriteRule.Add a -> i == (a.place() == RewriteRule.Place.BEFORE ? first : last);
            };
            if (applies && content.get(i) instanceof ContentBlock.Text t) {
                content.set(i, new ContentBlock.Text(run(rule, t.text(), skill), t.cache(), t.signature()));
            }
        }
        if (hadContent && blank(content)) {
            throw GatewayError.invalid(skill.param(), "The rules of " + skill.describe()
                    + " leave a user message with no text; a message needs some content.").toException();
        }
        return new Message(m.role(), content);
    }

    /** Whether {@code content} is text only, and only whitespace (which no provider takes as a message). */
    private static boolean blank(List<ContentBlock> content) {
        return content.stream().allMatch(b -> b instanceof ContentBlock.Text t && t.text().isBlank());
    }

    private static String run(RewriteRule rule, String text, StackedSkill skill) {
        try {
            return rule.apply(text);
        } catch (GatewayException e) {
            throw GatewayError.invalid(skill.param(), "A rule of " + skill.describe() + " cannot be applied: "
                    + e.error().message()).toException();
        }
    }
}
