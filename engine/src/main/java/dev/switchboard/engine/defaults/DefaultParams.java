package dev.switchboard.engine.defaults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Sampling;
import dev.switchboard.wire.Json;
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
 * {@value #NAMES_TEXT}. {@link #parse} reads them into canonical values and checks those against the
 * ranges a request's values must keep (a 400 naming the field), plus a 400 for any other name. No client
 * format's reader is involved: saved defaults apply to requests of every format.
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
public record DefaultParams(Sampling sampling, OptionalInt maxTokens, List<String> stop, Reasoning reasoning,
                            Optional<ResponseFormat> responseFormat, List<String> transforms) {

    /** The parameter names that may be saved. */
    public static final Set<String> NAMES = Set.copyOf(new TreeSet<>(List.of("temperature", "top_p", "top_k",
            "presence_penalty", "frequency_penalty", "seed", "max_tokens", "max_completion_tokens", "stop",
            "reasoning_effort", "thinking", "thinking_budget", "response_format", "transforms")));
    static final String NAMES_TEXT = "temperature, top_p, top_k, presence_penalty, frequency_penalty, seed, max_tokens, "
            + "max_completion_tokens, stop, reasoning_effort, thinking, thinking_budget, response_format, transforms";

    static final String EFFORTS = "none, minimal, low, medium, high, xhigh, max";
    private static final int MAX_STOP = 4;
    private static final Set<String> TRANSFORMS = Set.of("middle-out");

    public static final DefaultParams NONE = new DefaultParams(Sampling.DEFAULT, OptionalInt.empty(), List.of(),
            Reasoning.NONE, Optional.empty(), List.of());

    public DefaultParams {
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
    public static DefaultParams parse(JsonNode params) {
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
        return new DefaultParamsReader(object).read().validated();
    }

    /**
     * These values, checked against the ranges a request's own values must keep (the chat-completions
     * format's: temperature 0 to 2, top_p 0 to 1, penalties -2 to 2, at least one output token, at most
     * four stop sequences, only known transforms).
     *
     * @throws dev.switchboard.model.GatewayException 400 naming the parameter out of range
     */
    DefaultParams validated() {
        within("temperature", sampling.temperature(), 0, 2);
        within("top_p", sampling.topP(), 0, 1);
        within("presence_penalty", sampling.presencePenalty(), -2, 2);
        within("frequency_penalty", sampling.frequencyPenalty(), -2, 2);
        if (sampling.topK().isPresent() && sampling.topK().getAsInt() < 0) {
            throw DefaultParamsReader.invalid("top_k", "`top_k` must be at least 0, got " + sampling.topK().getAsInt() + ".");
        }
        if (maxTokens.isPresent() && maxTokens.getAsInt() < 1) {
            throw DefaultParamsReader.invalid("max_tokens", "`max_tokens` must be at least 1, got " + maxTokens.getAsInt() + ".");
        }
        if (reasoning.budgetTokens().isPresent() && reasoning.budgetTokens().getAsInt() < 0) {
            throw DefaultParamsReader.invalid("thinking_budget", "`thinking_budget` must be at least 0, got "
                    + reasoning.budgetTokens().getAsInt() + ".");
        }
        if (stop.size() > MAX_STOP) {
            throw DefaultParamsReader.invalid("stop", "`stop` takes at most " + MAX_STOP + " sequences, got " + stop.size() + ".");
        }
        for (String t : transforms) {
            if (!TRANSFORMS.contains(t)) {
                throw DefaultParamsReader.invalid("transforms", "`transforms` supports only \"middle-out\"; got \"" + t + "\".");
            }
        }
        return this;
    }

    private static void within(String name, Optional<Double> value, double min, double max) {
        if (value.isPresent() && !(value.get() >= min && value.get() <= max)) {
            throw DefaultParamsReader.invalid(name, "`" + name + "` must be between " + fmt(min) + " and " + fmt(max)
                    + ", got " + value.get() + ".");
        }
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** Parses stored JSON text that was validated when it was saved. */
    public static DefaultParams parseStored(String json) {
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
