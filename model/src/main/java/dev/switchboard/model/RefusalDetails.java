package dev.switchboard.model;

import java.util.Objects;
import java.util.Optional;

/**
 * Why the model refused, when the provider says more than the REFUSAL stop reason: the policy
 * {@code category} that triggered it (the provider's own name, e.g. Anthropic's {@code cyber}) and a
 * human-readable {@code explanation}, each absent when the provider gave none.
 */
public record RefusalDetails(Optional<String> category, Optional<String> explanation) {
    public RefusalDetails {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(explanation, "explanation");
    }
}
