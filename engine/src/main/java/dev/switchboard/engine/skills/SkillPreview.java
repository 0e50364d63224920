package dev.switchboard.engine.skills;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.extend.JsonInput;
import dev.switchboard.engine.extend.SkillBody;
import dev.switchboard.engine.extend.SkillHints;
import dev.switchboard.engine.extend.SkillLookup;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.SkillRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a sample conversation becomes under a skill, for a rules editor ({@code POST /v1/skills/preview}): the
 * system text in the order the model gets it, the messages after the rules ran, and the hints that would fill
 * unset parameters. Exactly the transformation of a chat request ({@link SkillText}, {@link SkillHintFill}),
 * without any model or upstream.
 *
 * <p>The request names what to preview, exactly one of: {@code body} (a draft, checked as a skill write
 * checks it, errors naming {@code body.rules[0].find}), {@code skill} (an id) or {@code skills} (ids, stacked);
 * and the sample: {@code message} (one user message) or {@code messages} ({@code [{role: user | assistant,
 * content: text}]}, at most {@value #MAX_MESSAGES}), with an optional {@code system} (the caller's own system
 * prompt).
 */
public final class SkillPreview {
    public static final int MAX_MESSAGES = 100;
    private static final int MAX_TEXT = 100_000;
    /** The id a draft body is shown under. */
    public static final String DRAFT = "draft";

    /** The outcome: the skills applied (ids; {@value #DRAFT} for a body), system texts, messages, merged hints. */
    public record Result(List<String> skills, List<String> system, List<Message> messages, SkillHints hints) {
        public Result {
            skills = List.copyOf(skills);
            system = List.copyOf(system);
            messages = List.copyOf(messages);
        }
    }

    private SkillPreview() {
    }

    /**
     * Previews what {@code json} asks for, as {@code userId} (whose private skills may be named).
     *
     * @throws dev.switchboard.model.GatewayException 400 naming the field at fault
     */
    public static Result run(SkillLookup lookup, String userId, JsonNode json) {
        JsonInput in = JsonInput.of(json, "");
        in.allowOnly(Set.of("body", "skill", "skills", "system", "message", "messages"), Set.of());
        List<StackedSkill> stack = stack(lookup, userId, in);
        ChatRequest.Builder sample = ChatRequest.builder("preview").messages(messages(in));
        in.text("system", MAX_TEXT, false).filter(s -> !s.isEmpty())
                .ifPresent(s -> sample.system(List.of(ContentBlock.Text.of(s))));
        ChatRequest after = SkillText.apply(sample.build(), stack);
        List<String> system = new ArrayList<>();
        after.system().forEach(b -> system.add(((ContentBlock.Text) b).text()));
        return new Result(stack.stream().map(StackedSkill::id).toList(), system, after.messages(),
                SkillHintFill.merged(stack));
    }

    private static List<StackedSkill> stack(SkillLookup lookup, String userId, JsonInput in) {
        long named = Set.of("body", "skill", "skills").stream().filter(in::has).count();
        if (named != 1) {
            throw GatewayError.invalid(named == 0 ? "body" : "skills", "Name exactly one of `body` (a draft skill body),"
                    + " `skill` (an id) or `skills` (ids) to preview.").toException();
        }
        if (in.has("body")) {
            SkillBody body = SkillBody.read(in.node().get("body"), "body");
            return List.of(new StackedSkill(DRAFT, body, Optional.of("body")));
        }
        List<SkillRef> refs = new ArrayList<>();
        in.text("skill", 200, true).ifPresent(id -> refs.add(new SkillRef(id, "skill")));
        List<String> ids = in.texts("skills", SkillStack.MAX_SKILLS, 200);
        for (int i = 0; i < ids.size(); i++) {
            refs.add(new SkillRef(ids.get(i).strip(), "skills[" + i + "]"));
        }
        return SkillStack.named(lookup, userId, refs);
    }

    private static List<Message> messages(JsonInput in) {
        if (in.has("message") == in.has("messages")) {
            throw GatewayError.invalid("message", "Give the sample as `message` (one user message) or `messages`"
                    + " ([{\"role\": \"user\", \"content\": \"...\"}]), one of the two.").toException();
        }
        if (in.has("message")) {
            return List.of(Message.user(in.text("message", MAX_TEXT, false).orElseThrow()));
        }
        List<JsonInput> items = in.objects("messages", MAX_MESSAGES);
        if (items.isEmpty()) {
            throw GatewayError.invalid("messages", "`messages` needs at least one message.").toException();
        }
        List<Message> out = new ArrayList<>();
        for (JsonInput m : items) {
            m.allowOnly(Set.of("role", "content"), Set.of());
            String role = m.requiredText("role", 16);
            Role r = switch (role) {
                case "user" -> Role.USER;
                case "assistant" -> Role.ASSISTANT;
                default -> throw GatewayError.invalid(m.field("role"), m.field("role") + ": expected user or assistant, got '"
                        + role + "'").toException();
            };
            String content = m.text("content", MAX_TEXT, false).orElseThrow(() -> GatewayError.invalid(m.field("content"),
                    m.field("content") + ": required").toException());
            out.add(new Message(r, List.of(ContentBlock.Text.of(content))));
        }
        return out;
    }
}
