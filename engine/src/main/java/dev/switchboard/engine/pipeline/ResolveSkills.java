package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillLookup;
import dev.switchboard.engine.skills.SkillStack;
import dev.switchboard.engine.skills.StackedSkill;
import dev.switchboard.model.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The skills stage (spec 2.2 {@code skill}, {@code skills}): which skills apply to a request. The skills a
 * request names are resolved once, before the models: each must be one the caller may use (public, unlisted,
 * or the caller's own private skill); an unknown id and another user's private skill are the same 400, naming
 * the field that named it ({@code skill}, {@code skills[i]}, {@code x-switchboard-skills}). A skill named twice
 * applies once; at most {@value SkillStack#MAX_SKILLS} apply to one request.
 *
 * <p>Per candidate model, the stack is the named skills, or, when the request names none, the skills the caller
 * installed for that model (with any of the caller's keys; in install order). The prepare stage applies it.
 */
public final class ResolveSkills {
    private static final Logger LOG = LoggerFactory.getLogger(ResolveSkills.class);

    private final SkillLookup lookup;

    public ResolveSkills(SkillLookup lookup) {
        this.lookup = lookup;
    }

    /**
     * The skills {@code request} names, in order.
     *
     * @throws dev.switchboard.model.GatewayException 400 naming the field of an unknown skill, or of the first
     *         skill beyond the maximum
     */
    public List<StackedSkill> named(Caller caller, ChatRequest request) {
        return SkillStack.named(lookup, caller.userId(), request.skills());
    }

    /** The skills that apply for {@code model}: the named ones, else the caller's installed ones for it. */
    public SkillStack forModel(Caller caller, List<StackedSkill> named, ModelEntry model) {
        if (!named.isEmpty()) {
            return new SkillStack(named, SkillStack.Origin.REQUEST);
        }
        List<StackedSkill> installed = new ArrayList<>();
        for (Skill s : lookup.installedFor(caller.userId(), model.id())) {
            if (installed.size() == SkillStack.MAX_SKILLS) {
                // installing refuses one skill too many for a model; only installs racing each other get here
                LOG.atWarn().addKeyValue("user_id", caller.userId()).addKeyValue("model", model.id())
                        .log("more than {} installed skills apply; the first {} in install order are used",
                                SkillStack.MAX_SKILLS, SkillStack.MAX_SKILLS);
                break;
            }
            installed.add(StackedSkill.installed(s));
        }
        return installed.isEmpty() ? SkillStack.EMPTY : new SkillStack(installed, SkillStack.Origin.INSTALLED);
    }
}
