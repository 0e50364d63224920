package dev.switchboard.server.trace;

import dev.switchboard.engine.catalog.ProviderType;
import io.opentelemetry.api.common.AttributeKey;

/**
 * The attribute names of the OpenTelemetry semantic conventions the spans use (GenAI, HTTP, server, error), as
 * constants: the conventions' own artifact is incubating and would add a dependency for a dozen strings. Only names,
 * counts, models and statuses go in attributes: never a key, a prompt or an answer.
 */
final class GenAiAttributes {
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    /** The older name of {@link #PROVIDER}, still read by many back ends. */
    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("gen_ai.system");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<Long> REQUEST_MAX_TOKENS = AttributeKey.longKey("gen_ai.request.max_tokens");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");
    static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    /** The gateway's own: which configured provider (by its config id) an attempt went to. */
    static final AttributeKey<String> SWITCHBOARD_PROVIDER = AttributeKey.stringKey("switchboard.provider.id");
    static final AttributeKey<String> SWITCHBOARD_REQUEST_ID = AttributeKey.stringKey("switchboard.request_id");

    /** The operation every chat endpoint performs. */
    static final String CHAT = "chat";

    private GenAiAttributes() {
    }

    /** The conventions' provider name of a provider type (well-known values where the conventions have one). */
    static String providerName(ProviderType type) {
        return switch (type) {
            case OPENAI, OPENAI_RESPONSES -> "openai";
            case ANTHROPIC -> "anthropic";
            case GEMINI -> "gcp.gemini";
            case SIMULATOR -> "switchboard.simulator";
        };
    }
}
