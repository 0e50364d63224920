package dev.switchboard.engine.skills;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.extend.Limits;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillLookup;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.SkillRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The skills that apply to one request for one model, in stack order: the ones the request named, or, when it
 * named none, the ones the caller installed for that model ({@link Origin}). Applying the stack puts the system
 * prompts first, runs the rules over the caller's text, then fills unset parameters from the hints; a request
 * is only ever transformed once, from what the caller sent.
 */
public record SkillStack(List<StackedSkill> skills, Origin origin) {
    /** Where the skills of a stack came from. */
    public enum Origin {
        /** The request named them ({@code skill}, {@code skills}, the header). */
        REQUEST,
        /** The request named none; these are the caller's installed skills for the model. */
        INSTALLED
    }

    /** The most skills that apply to one request. */
    public static final int MAX_SKILLS = Limits.SKILLS_PER_REQUEST;
    public static final SkillStack EMPTY = new SkillStack(List.of(), Origin.INSTALLED);

    public SkillStack {
        skills = List.copyOf(skills);
        Objects.requireNonNull(origin, "origin");
    }

    public boolean isEmpty() {
        return skills.isEmpty();
    }

    /**
     * The skills {@code refs} name, as {@code userId} may use them, in order, a skill named twice once.
     *
     * @throws dev.switchboard.model.GatewayException 400 naming the field of an unknown skill (or another
     *         user's private one: the same words), or of the first skill beyond {@value #MAX_SKILLS}
     */
    public static List<StackedSkill> named(SkillLookup lookup, String userId, List<SkillRef> refs) {
        List<StackedSkill> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (SkillRef ref : refs) {
            if (!seen.add(ref.id())) {
                continue;
            }
            if (seen.size() > MAX_SKILLS) {
                throw GatewayError.invalid(ref.field(), "A request may apply at most " + MAX_SKILLS + " skills; `"
                        + ref.field() + "` names skill number " + seen.size()
                        + " (skill, skills and the x-switchboard-skills header count together).").toException();
            }
            Skill skill = lookup.usable(ref.id(), userId).orElseThrow(() -> GatewayError.invalid(ref.field(),
                    "Unknown skill '" + ref.id() + "' in `" + ref.field() + "`: no skill with this id exists, or it is"
                    + " another user's private skill (see GET /v1/skills).").toException());
            out.add(StackedSkill.named(skill, ref.field()));
        }
        return out;
    }

    /** The ids, in stack order. */
    public List<String> ids() {
        return skills.stream().map(StackedSkill::id).toList();
    }

    /**
     * {@code request} as {@code model} gets it under these skills.
     *
     * @throws dev.switchboard.model.GatewayException 400 naming the skill's field when a rule would grow a text
     *         by more than {@link dev.switchboard.engine.extend.RewriteRule#MAX_GROWTH} characters or leave a
     *         user message without any content
     */
    public ChatRequest applyTo(ChatRequest request, ModelEntry model) {
        if (skills.isEmpty()) {
            return request;
        }
        return SkillHintFill.fill(SkillText.apply(request, skills), skills, model);
    }
}
