package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.context.ContextWindow;
import dev.switchboard.engine.defaults.SavedDefaultsService;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.engine.skills.SkillStack;
import dev.switchboard.engine.skills.StackedSkill;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prepare stage: the request as each candidate model should get it, built once before any upstream
 * call from what the caller sent. Per model, in order: the skills that apply to it (the ones the request
 * named, else the caller's installed ones for that model; {@link ResolveSkills}) put their system prompts
 * first, rewrite the caller's text and fill unset parameters from their hints; the caller's saved defaults
 * for that model fill what is still unset (unless {@code ignore_defaults}); the model's flags are checked
 * (tools, images); the request is shaped ({@code max_tokens} capped, reasoning and JSON controls kept only
 * where supported); and it is fitted to the context window ({@code middle-out} when asked for), skills'
 * system prompts included. A requested model that cannot take the request is a 400; such a fallback is
 * skipped and logged.
 */
public final class PrepareCandidates {
    private static final Logger LOG = LoggerFactory.getLogger(PrepareCandidates.class);

    private final SavedDefaultsService.Lookup defaults;
    private final ResolveSkills skills;

    public PrepareCandidates(SavedDefaultsService.Lookup defaults, ResolveSkills skills) {
        this.defaults = defaults;
        this.skills = skills;
    }

    /**
     * The candidates, requested model first.
     *
     * @param named the skills the request names ({@link ResolveSkills#named})
     * @throws GatewayException 400 when the requested model cannot take the request
     */
    public List<Candidate> candidates(Caller caller, ChatRequest request, List<StackedSkill> named, ResolvedModels models,
                                      RequestTrace trace) {
        List<Candidate> out = new ArrayList<>();
        out.add(prepare(caller, request, named, models.requested(), trace));
        trace.skills(out.getFirst().skills());
        for (ModelEntry fallback : models.fallbacks()) {
            try {
                out.add(prepare(caller, request, named, fallback, trace));
            } catch (GatewayException e) {
                LOG.atInfo().addKeyValue("request_id", trace.requestId()).addKeyValue("fallback", fallback.id())
                        .log("fallback skipped: {}", e.error().message());
            }
        }
        return out;
    }

    private Candidate prepare(Caller caller, ChatRequest request, List<StackedSkill> named, ModelEntry model,
                              RequestTrace trace) {
        SkillStack stack = skills.forModel(caller, named, model);
        ChatRequest withSkills = stack.applyTo(request, model);
        ChatRequest r = request.ignoreDefaults() ? withSkills
                : defaults.find(caller.userId(), model.id()).map(d -> d.applyTo(withSkills)).orElse(withSkills);
        RequestShaper.incompatibility(r, model).ifPresent(e -> {
            throw e.toException();
        });
        ChatRequest fitted = switch (ContextWindow.fit(RequestShaper.shape(r, model), model)) {
            case ContextWindow.Fits f -> f.request();
            case ContextWindow.Trimmed t -> {
                LOG.atInfo().addKeyValue("request_id", trace.requestId()).addKeyValue("model", model.id())
                        .addKeyValue("dropped_messages", t.dropped()).log("middle-out trimmed the conversation");
                yield t.request();
            }
            case ContextWindow.Overflow o -> throw o.error().toException();
        };
        return new Candidate(model, fitted, stack.ids());
    }
}
