package dev.switchboard.testkit.it.conformance;

/**
 * The upstream wire formats, each a provider of the one gateway pointing at the fake upstream, which
 * speaks all four: the column groups of the matrix.
 */
enum Upstream {
    OPENAI("openai", "OpenAI", "${UPSTREAM_OPENAI}", "sk-matrix-openai-0123456789", new OpenAiUpstream()),
    ANTHROPIC("anthropic", "Anthropic", "${UPSTREAM}", "sk-ant-matrix-0123456789", new AnthropicUpstream()),
    GEMINI("gemini", "Gemini", "${UPSTREAM}", "matrix-google-key-0123456789", new GeminiUpstream()),
    RESPONSES("openai-responses", "Responses", "${UPSTREAM_OPENAI}", "sk-matrix-responses-0123456789",
            new ResponsesUpstream());

    /** The provider's {@code type} in the gateway config, and the word naming it in model ids. */
    final String type;
    final String title;
    final String baseUrl;
    /** The key the provider sends; the fake accepts only these, each in its format's own header. */
    final String key;
    final UpstreamFormat format;

    Upstream(String type, String title, String baseUrl, String key, UpstreamFormat format) {
        this.type = type;
        this.title = title;
        this.baseUrl = baseUrl;
        this.key = key;
        this.format = format;
    }

    /** The gateway model of this upstream for {@code feature}. */
    String model(Feature feature) {
        return "cm-" + type + "-" + feature.id();
    }

    /** The upstream model name the fake sees for {@link #model}: no behaviour suffix, a plain upstream. */
    String upstreamModel(Feature feature) {
        return "up-" + type + "-" + feature.upstreamSegment();
    }

    String provider() {
        return "p-" + type;
    }
}
