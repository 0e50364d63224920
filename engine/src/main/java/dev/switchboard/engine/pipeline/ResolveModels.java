package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Plans;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resolve stage: the request's model (id or alias) and its caller fallbacks ({@code models} /
 * {@code fallbacks}) become catalog entries, once per request. The requested model must exist (404
 * {@code model_not_found}), be within the key's scope (403 {@code insufficient_scope}) and not be excluded by
 * the caller's active plan (403 {@code model_access_denied}, {@link Plans.Access#NOT_IN_PLAN}; a model that
 * needs a subscription the caller does not have is refused by money's admission with 402, after the limits).
 * A fallback the caller may not use (any of these, or one it could only use with a subscription), or one that
 * repeats an earlier candidate, is skipped and logged (spec 2.2).
 *
 * <p>The skills a request names are resolved before this stage ({@link ResolveSkills}), so an unknown skill
 * (400) is refused before an unknown model (404).
 */
public final class ResolveModels {
    private static final Logger LOG = LoggerFactory.getLogger(ResolveModels.class);

    private final Catalog catalog;

    public ResolveModels(Catalog catalog) {
        this.catalog = catalog;
    }

    /** The requested model only (for {@code count_tokens}). */
    public ModelEntry requested(Caller caller, ChatRequest request, RequestTrace trace) {
        trace.modelAsked(request.model());
        ModelEntry model = catalog.resolve(request.model())
                .orElseThrow(() -> GatewayError.modelNotFound(request.model()).toException());
        if (!caller.mayUseModel(model.id()) && !caller.mayUseModel(request.model())) {
            throw GatewayError.forbidden("insufficient_scope",
                    "This API key may not use the model '" + request.model() + "'.").toException();
        }
        // A model that needs a subscription the caller lacks passes here: that is money's 402, after the limits' 429.
        if (catalog.plans().access(caller.plan(), model) == Plans.Access.NOT_IN_PLAN) {
            throw GatewayError.forbidden("model_access_denied", "The model '" + request.model()
                    + "' is not included in your plan (" + caller.plan() + ") and is not offered pay-as-you-go.").toException();
        }
        return model;
    }

    /** The requested model and the usable fallbacks. */
    public ResolvedModels models(Caller caller, ChatRequest request, RequestTrace trace) {
        ModelEntry requested = requested(caller, request, trace);
        List<ModelEntry> fallbacks = new ArrayList<>();
        for (String id : request.fallbackModels()) {
            Optional<ModelEntry> m = catalog.resolve(id);
            String why = m.isEmpty() ? "unknown model"
                    : !catalog.plans().access(caller.plan(), m.get()).usable() ? "not in the caller's plan nor pay-as-you-go"
                    : !caller.mayUseModel(m.get().id()) ? "outside the key's scope"
                    : m.get().id().equals(requested.id()) || fallbacks.contains(m.get()) ? "already a candidate"
                    : "";
            if (why.isEmpty()) {
                fallbacks.add(m.get());
            } else {
                LOG.atInfo().addKeyValue("request_id", trace.requestId()).addKeyValue("fallback", id)
                        .log("fallback skipped: {}", why);
            }
        }
        return new ResolvedModels(requested, fallbacks);
    }
}
