package dev.switchboard.server.api;

import dev.switchboard.model.GatewayError;
import java.util.Optional;

/**
 * The part of a content-parts path after {@code /models/}: {@code {model}} for a model resource, or
 * {@code {model}:{method}} for a call. Model ids may contain {@code /} (e.g. {@code openai/gpt-4o}), so
 * routes match a whole prefix and this class reads the rest; the method is what follows the last
 * {@code :}. A leading {@code models/} is tolerated for clients that send the resource name twice.
 *
 * @param model  the model id as the client named it (never empty)
 * @param method the method after the colon, if any
 */
record ModelPath(String model, Optional<String> method) {
    static final String GENERATE = "generateContent";
    static final String STREAM = "streamGenerateContent";
    static final String COUNT_TOKENS = "countTokens";

    /**
     * Reads {@code path} (decoded, without query), which must start with {@code prefix} (e.g.
     * {@code /v1beta/models/}).
     *
     * @throws dev.switchboard.model.GatewayException 404 when no model is named
     */
    static ModelPath parse(String path, String prefix) {
        String rest = path.startsWith(prefix) ? path.substring(prefix.length()) : "";
        if (rest.startsWith("models/")) {
            rest = rest.substring("models/".length());
        }
        int colon = rest.lastIndexOf(':');
        String model = colon < 0 ? rest : rest.substring(0, colon);
        Optional<String> method = colon < 0 ? Optional.empty() : Optional.of(rest.substring(colon + 1));
        if (model.isEmpty() || model.endsWith("/")) {
            throw GatewayError.notFound("No model named in the path " + path + " (expected " + prefix + "{model}).").toException();
        }
        return new ModelPath(model, method);
    }
}
