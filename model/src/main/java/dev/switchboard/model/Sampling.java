package dev.switchboard.model;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** Sampling parameters; an empty value means "the provider's default". Ranges are validated by the client translators. */
public record Sampling(Optional<Double> temperature, Optional<Double> topP, OptionalInt topK,
                       Optional<Double> presencePenalty, Optional<Double> frequencyPenalty, OptionalLong seed) {
    public static final Sampling DEFAULT = new Sampling(Optional.empty(), Optional.empty(), OptionalInt.empty(),
            Optional.empty(), Optional.empty(), OptionalLong.empty());

    public Sampling {
        Objects.requireNonNull(temperature, "temperature");
        Objects.requireNonNull(topP, "topP");
        Objects.requireNonNull(topK, "topK");
        Objects.requireNonNull(presencePenalty, "presencePenalty");
        Objects.requireNonNull(frequencyPenalty, "frequencyPenalty");
        Objects.requireNonNull(seed, "seed");
    }

    public Sampling withTemperature(Optional<Double> t) {
        return new Sampling(t, topP, topK, presencePenalty, frequencyPenalty, seed);
    }

    public Sampling withTopP(Optional<Double> p) {
        return new Sampling(temperature, p, topK, presencePenalty, frequencyPenalty, seed);
    }
}
