package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.context.ContextWindow;
import dev.switchboard.engine.defaults.ModelDefaults;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prepare stage: the request as each candidate model should get it, built once before any upstream
 * call. Per model, in order: the caller's saved defaults for that model fill what the request left unset
 * (unless {@code ignore_defaults}); the model's flags are checked (tools, images); the request is shaped
 * ({@code max_tokens} capped, reasoning and JSON controls kept only where supported); and it is fitted to
 * the context window ({@code middle-out} when asked for). A requested model that cannot take the request
 * is a 400; such a fallback is skipped and logged.
 */
public final class PrepareCandidates {
    private static final Logger LOG = LoggerFactory.getLogger(PrepareCandidates.class);

    private final ModelDefaults.Lookup defaults;

    public PrepareCandidates(ModelDefaults.Lookup defaults) {
        this.defaults = defaults;
    }

    /**
     * The candidates, requested model first.
     *
     * @throws GatewayException 400 when the requested model cannot take the request
     */
    public List<Candidate> candidates(Caller caller, ChatRequest request, ResolvedModels models, RequestTrace trace) {
        List<Candidate> out = new ArrayList<>();
        out.add(new Candidate(models.requested(), prepare(caller, request, models.requested(), trace)));
        for (ModelEntry fallback : models.fallbacks()) {
            try {
                out.add(new Candidate(fallback, prepare(caller, request, fallback, trace)));
            } catch (GatewayException e) {
                LOG.atInfo().addKeyValue("request_id", trace.requestId()).addKeyValue("fallback", fallback.id())
                        .log("fallback skipped: {}", e.error().message());
            }
        }
        return out;
    }

    private ChatRequest prepare(Caller caller, ChatRequest request, ModelEntry model, RequestTrace trace) {
        ChatRequest r = request.ignoreDefaults() ? request
                : defaults.find(caller.userId(), model.id()).map(d -> d.applyTo(request)).orElse(request);
        RequestShaper.incompatibility(r, model).ifPresent(e -> {
            throw e.toException();
        });
        return switch (ContextWindow.fit(RequestShaper.shape(r, model), model)) {
            case ContextWindow.Fits f -> f.request();
            case ContextWindow.Trimmed t -> {
                LOG.atInfo().addKeyValue("request_id", trace.requestId()).addKeyValue("model", model.id())
                        .addKeyValue("dropped_messages", t.dropped()).log("middle-out trimmed the conversation");
                yield t.request();
            }
            case ContextWindow.Overflow o -> throw o.error().toException();
        };
    }
}
