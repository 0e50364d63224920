package dev.switchboard.engine.catalog;

import dev.switchboard.model.WireName;
import java.util.Optional;

/**
 * Which server stands behind a provider of {@code type: openai}, chosen in config ({@code flavour:}), never
 * guessed from its host name: OpenAI's EU host, Azure or a proxy in front of OpenAI are {@link #OPENAI} as
 * much as api.openai.com is.
 *
 * <ul>
 *   <li>{@link #OPENAI} (the default): OpenAI's rules at any base URL: {@code max_completion_tokens} (its
 *       reasoning models refuse {@code max_tokens}), no {@code reasoning_content} echo, no {@code top_k},
 *       and no request field OpenAI's API does not define.</li>
 *   <li>{@link #COMPATIBLE}: vLLM-, DeepSeek- or Together-style servers: {@code max_tokens},
 *       {@code top_k}, earlier reasoning echoed as {@code reasoning_content}, and a client's extra fields
 *       ({@code repetition_penalty}, {@code min_p}...) forwarded.</li>
 *   <li>{@link #OPENROUTER}: as {@code compatible} (OpenRouter takes and routes extra sampling fields).</li>
 *   <li>{@link #GOOGLE}: Google's OpenAI-compatible endpoint: {@code max_tokens}, Gemini thought signatures
 *       of earlier tool calls echoed, no extras.</li>
 * </ul>
 */
public enum ProviderFlavour implements WireName {
    OPENAI, COMPATIBLE, OPENROUTER, GOOGLE;

    public static Optional<ProviderFlavour> parse(String s) {
        return WireName.find(values(), s);
    }
}
