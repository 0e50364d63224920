package dev.switchboard.wire.openai;

import dev.switchboard.model.WireName;
import java.util.Objects;

/**
 * How {@link OpenAi#toUpstream} adapts to the OpenAI-compatible server it talks to. The defaults favour
 * the widest compatibility across compatible servers (vLLM, DeepSeek, OpenRouter, Together...); the
 * engine picks others per provider.
 *
 * @param maxTokensField which field carries the output cap: {@code max_tokens} (default; understood by
 *     every compatible server) or {@code max_completion_tokens} (required by OpenAI's own reasoning
 *     models, which reject {@code max_tokens})
 * @param sendTopK send {@code top_k} when the request has one (vLLM, OpenRouter, Together accept it;
 *     OpenAI rejects unknown parameters, hence off by default)
 * @param echoReasoning send earlier turns' unsigned or OpenAI-signed reasoning back as
 *     {@code reasoning_content} (DeepSeek's thinking mode wants it in tool loops; its older API and
 *     strict servers reject it, so it can be switched off)
 * @param echoGeminiThoughtSignatures send Gemini thought signatures of earlier tool calls in
 *     {@code tool_calls[].extra_content.google.thought_signature} (only Gemini's OpenAI-compatible
 *     endpoint understands them; off by default because a signature goes only where its issuer is)
 * @param extras forward a client's request fields that OpenAI's API does not define
 *     ({@code repetition_penalty}, {@code min_p}...): vLLM-, DeepSeek- or OpenRouter-style servers take
 *     them; OpenAI answers "Unrecognized request argument", so without this they are left out (and named
 *     by {@link OpenAi#notCarried})
 */
public record OpenAiUpstreamOptions(MaxTokensField maxTokensField, boolean sendTopK, boolean echoReasoning,
                                    boolean echoGeminiThoughtSignatures, boolean extras) {

    /** The output-cap field name. */
    public enum MaxTokensField implements WireName {
        MAX_TOKENS, MAX_COMPLETION_TOKENS
    }

    public static final OpenAiUpstreamOptions DEFAULT =
            new OpenAiUpstreamOptions(MaxTokensField.MAX_TOKENS, false, true, false, true);

    /** OpenAI's own API (at any base URL: OpenAI's EU host, Azure, a proxy): its rules for every model. */
    public static final OpenAiUpstreamOptions OPENAI =
            new OpenAiUpstreamOptions(MaxTokensField.MAX_COMPLETION_TOKENS, false, false, false, false);

    /** Options that take no extras. */
    public OpenAiUpstreamOptions(MaxTokensField maxTokensField, boolean sendTopK, boolean echoReasoning,
                                 boolean echoGeminiThoughtSignatures) {
        this(maxTokensField, sendTopK, echoReasoning, echoGeminiThoughtSignatures, false);
    }

    public OpenAiUpstreamOptions {
        Objects.requireNonNull(maxTokensField, "maxTokensField");
    }

    public OpenAiUpstreamOptions withMaxTokensField(MaxTokensField f) {
        return new OpenAiUpstreamOptions(f, sendTopK, echoReasoning, echoGeminiThoughtSignatures, extras);
    }
}
