package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.ThinkingBudget;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Fits a request to one model's record: checks what the model cannot take at all (tools, images), caps
 * {@code max_tokens} at the model's {@code max_output_tokens}, forwards reasoning controls only to models
 * flagged {@code supports_reasoning}, structured output only to models flagged {@code supports_json}, and
 * no sampling parameter the model refuses ({@link RefusedParams})
 * (spec 2.1, 2.4, 2.5). The flags are the authority; nothing is inferred from a model's name.
 */
public final class RequestShaper {
    private RequestShaper() {
    }

    /** Why {@code model} cannot serve {@code request}, if it cannot. */
    public static Optional<GatewayError> incompatibility(ChatRequest request, ModelEntry model) {
        if (!request.tools().isEmpty() && !model.capabilities().supportsTools()) {
            return Optional.of(GatewayError.invalid("tools", "The model '" + model.id() + "' does not support tools."));
        }
        if (!model.capabilities().supportsVision() && hasImages(request)) {
            return Optional.of(GatewayError.invalid("messages",
                    "The model '" + model.id() + "' does not accept images (supports_vision is false)."));
        }
        return Optional.empty();
    }

    private static boolean hasImages(ChatRequest request) {
        for (Message m : request.messages()) {
            for (ContentBlock b : m.content()) {
                if (b instanceof ContentBlock.Image
                        || b instanceof ContentBlock.ToolResult r && r.content().stream().anyMatch(c -> c instanceof ContentBlock.Image)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The caller's token budget fitted to what the model accepts ({@code reasoning.budget} of the catalog):
     * clamped into its range (and below {@code max_tokens} where the upstream requires it), or, for a model
     * that takes effort levels only, left out (the effort it implies was derived by {@link ReasoningFit}).
     */
    static Reasoning budgetInRange(Reasoning r, ModelEntry model, int maxTokens) {
        if (r.budgetTokens().isEmpty() || model.reasoning().budget().isEmpty()) {
            return r;
        }
        int asked = r.budgetTokens().getAsInt();
        OptionalInt budget = switch (model.reasoning().budget().get()) {
            case ThinkingBudget.Range range -> asked <= 0 ? OptionalInt.of(asked) : OptionalInt.of(range.clamp(asked, maxTokens));
            case ThinkingBudget.Refused refused -> OptionalInt.empty();
        };
        return new Reasoning(r.effort(), r.mode(), budget, r.format(), r.exclude(), r.summary(), r.effortImplied());
    }

    /** The request as it should be sent to {@code model}'s providers. */
    public static ChatRequest shape(ChatRequest request, ModelEntry model) {
        ChatRequest.Builder b = RefusedParams.strip(request, model).toBuilder();
        OptionalInt max = request.maxTokens();
        if (max.isPresent() && max.getAsInt() > model.maxOutputTokens()) {
            b.maxTokens(model.maxOutputTokens());
        }
        int cap = Math.min(max.orElse(model.maxOutputTokens()), model.maxOutputTokens());
        if (model.capabilities().supportsReasoning()) {
            Reasoning fitted = ReasoningFit.fit(request.reasoning(), model.reasoning());
            b.reasoning(budgetInRange(fitted, model, cap));
        } else {
            Reasoning r = request.reasoning();
            b.reasoning(new Reasoning(Optional.empty(), Optional.empty(), OptionalInt.empty(), r.format(), r.exclude(),
                    Optional.empty()));
        }
        if (!model.capabilities().supportsJson()) {
            b.responseFormat(ResponseFormat.TEXT);
        }
        return b.build();
    }
}
