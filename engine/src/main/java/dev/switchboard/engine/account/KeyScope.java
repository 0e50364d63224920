package dev.switchboard.engine.account;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * What an API key may be used for. An empty list means "no restriction" on that axis.
 *
 * @param models    model ids the key may call (compare against the canonical id the request
 *                  resolved to); each non-blank, without whitespace, at most 200 characters
 * @param endpoints endpoint groups the key may call, each one of {@link #ENDPOINTS}
 * @throws AccountException INVALID("models") or INVALID("endpoints") naming the bad entry
 */
public record KeyScope(List<String> models, List<String> endpoints) {

    /** Endpoint group names, one per chat surface of the gateway. */
    public static final String CHAT_COMPLETIONS = "chat_completions";
    public static final String MESSAGES = "messages";
    public static final String COUNT_TOKENS = "count_tokens";
    public static final String GENERATE_CONTENT = "generate_content";
    public static final String RESPONSES = "responses";
    public static final String MODELS = "models";
    /** The caller's own account: {@code /v1/credits}, {@code /v1/generation}, {@code /v1/usage}. */
    public static final String USAGE = "usage";

    /** Every accepted endpoint group name. */
    public static final List<String> ENDPOINTS =
            List.of(CHAT_COMPLETIONS, MESSAGES, COUNT_TOKENS, GENERATE_CONTENT, RESPONSES, MODELS, USAGE);

    /** No restriction. */
    public static final KeyScope ALL = new KeyScope(List.of(), List.of());

    private static final int MAX_MODEL_LENGTH = 200;

    public KeyScope {
        models = distinct(Objects.requireNonNull(models, "models"));
        endpoints = distinct(Objects.requireNonNull(endpoints, "endpoints"));
        for (String model : models) {
            if (model.isEmpty() || model.length() > MAX_MODEL_LENGTH || model.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
                throw AccountException.invalid("models",
                        "models: expected model ids without whitespace, 1 to " + MAX_MODEL_LENGTH + " characters each");
            }
        }
        for (String endpoint : endpoints) {
            if (!ENDPOINTS.contains(endpoint)) {
                throw AccountException.invalid("endpoints",
                        "endpoints: expected any of " + ENDPOINTS + ", got \"" + endpoint + "\"");
            }
        }
    }

    /** Whether a request for {@code model} is allowed. */
    public boolean allowsModel(String model) {
        return models.isEmpty() || models.contains(model);
    }

    /** Whether a request to the endpoint group {@code endpoint} is allowed. */
    public boolean allowsEndpoint(String endpoint) {
        return endpoints.isEmpty() || endpoints.contains(endpoint);
    }

    private static List<String> distinct(List<String> values) {
        return List.copyOf(new LinkedHashSet<>(values));
    }
}
