package dev.switchboard.engine.defaults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Sampling;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.openai.OpenAi;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * A user's saved default parameters for one model, and how they fill in what a request left unset.
 *
 * <p>They are written with the chat-completions names, whatever format the requests later arrive in:
 * {@value #NAMES_TEXT}. {@link #parse} validates them exactly as a chat-completions request body would be
 * validated (same ranges, same messages, a 400 naming the field), plus a 400 for any other name.
 *
 * <p>{@link #applyTo} fills only what the request did not set itself:
 * <ul>
 *   <li>{@code temperature} and {@code top_p} are one choice (spec 2.2: use one or the other): when the
 *       request set either, neither default applies.
 *   <li>{@code reasoning_effort}, {@code thinking} and {@code thinking_budget} are one choice too: when the
 *       request sent any reasoning control, none of the defaults applies (a saved budget next to a
 *       request's {@code thinking: off} would contradict it).
 *   <li>Every other parameter applies on its own when the request left it unset ({@code stop} and
 *       {@code transforms} when the request sent none; {@code response_format} when the request asked
 *       for plain text, which is also what "not set" means).
 * </ul>
 * Defaults go through the same shaping as request values afterwards: capped at the model's
 * {@code max_output_tokens}, dropped for a model without the matching capability.
 */
public record ParamDefaults(Sampling sampling, OptionalInt maxTokens, List<String> stop, Reasoning reasoning,
                            Optional<ResponseFormat> responseFormat, List<String> transforms) {

    /** The parameter names that may be saved. */
    public static final Set<String> NAMES = Set.copyOf(new TreeSet<>(List.of("temperature", "top_p", "top_k",
            "presence_penalty", "frequency_penalty", "seed", "max_tokens", "max_completion_tokens", "stop",
            "reasoning_effort", "thinking", "thinking_budget", "response_format", "transforms")));
    static final String NAMES_TEXT = "temperature, top_p, top_k, presence_penalty, frequency_penalty, seed, max_tokens, "
            + "max_completion_tokens, stop, reasoning_effort, thinking, thinking_budget, response_format, transforms";

    public static final ParamDefaults NONE = new ParamDefaults(Sampling.DEFAULT, OptionalInt.empty(), List.of(),
            Reasoning.NONE, Optional.empty(), List.of());

    public ParamDefaults {
        Objects.requireNonNull(sampling, "sampling");
        Objects.requireNonNull(maxTokens, "maxTokens");
        stop = List.copyOf(stop);
        Objects.requireNonNull(reasoning, "reasoning");
        Objects.requireNonNull(responseFormat, "responseFormat");
        transforms = List.copyOf(transforms);
    }

    /**
     * Validates a JSON object of saved parameters.
     *
     * @throws dev.switchboard.model.GatewayException 400 naming the offending field
     */
    public static ParamDefaults parse(JsonNode params) {
        if (!(params instanceof ObjectNode object)) {
            throw GatewayError.invalidRequest("The defaults must be a JSON object of chat parameters, such as "
                    + "{\"temperature\": 0.2}.").toException();
        }
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!NAMES.contains(name)) {
                throw GatewayError.invalid(name, "'" + name + "' cannot be saved as a default; the parameters that can "
                        + "are " + NAMES_TEXT + ".").toException();
            }
        }
        // validated by the chat-completions reader itself, so a saved default is exactly as valid as a request value
        ObjectNode body = object.deepCopy();
        body.put("model", "defaults");
        body.putArray("messages").addObject().put("role", "user").put("content", ".");
        ChatRequest r = OpenAi.fromClient(body);
        Optional<ResponseFormat> format = r.responseFormat() instanceof ResponseFormat.Text
                ? Optional.empty() : Optional.of(r.responseFormat());
        return new ParamDefaults(r.sampling(), r.maxTokens(), r.stop(), r.reasoning(), format, r.transforms());
    }

    /** Parses stored JSON text that was validated when it was saved. */
    public static ParamDefaults parseStored(String json) {
        return parse(Json.parse(json));
    }

    /** {@code request} with these defaults in the places it left unset. */
    public ChatRequest applyTo(ChatRequest request) {
        ChatRequest.Builder b = request.toBuilder();
        Sampling s = request.sampling();
        boolean choseTemperatureOrTopP = s.temperature().isPresent() || s.topP().isPresent();
        b.sampling(new Sampling(
                choseTemperatureOrTopP ? s.temperature() : sampling.temperature(),
                choseTemperatureOrTopP ? s.topP() : sampling.topP(),
                s.topK().isPresent() ? s.topK() : sampling.topK(),
                s.presencePenalty().or(sampling::presencePenalty),
                s.frequencyPenalty().or(sampling::frequencyPenalty),
                s.seed().isPresent() ? s.seed() : sampling.seed()));
        if (request.maxTokens().isEmpty()) {
            b.maxTokens(maxTokens);
        }
        if (request.stop().isEmpty()) {
            b.stop(stop);
        }
        Reasoning r = request.reasoning();
        if (!r.requested() && reasoning.requested()) {
            b.reasoning(new Reasoning(reasoning.effort(), reasoning.mode(), reasoning.budgetTokens(), r.format(),
                    r.exclude(), r.summary()));
        }
        if (request.responseFormat() instanceof ResponseFormat.Text && responseFormat.isPresent()) {
            b.responseFormat(responseFormat.get());
        }
        if (request.transforms().isEmpty()) {
            b.transforms(transforms);
        }
        return b.build();
    }
}
