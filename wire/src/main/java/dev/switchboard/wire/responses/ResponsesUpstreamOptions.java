package dev.switchboard.wire.responses;

/**
 * What the model behind a Responses upstream accepts, decided by the engine from the model record (the
 * Responses API refuses these fields rather than ignoring them):
 *
 * @param reasoning   whether the model reasons: only then are the {@code reasoning} controls, the
 *                    {@code include: ["reasoning.encrypted_content"]} and replayed reasoning items sent
 *                    (OpenAI answers 400 "Encrypted content is not supported with this model" and
 *                    "'reasoning.effort' is not supported with this model" to the others)
 * @param temperature whether {@code temperature} may be sent (reasoning models refuse it: "Unsupported
 *                    parameter: 'temperature' is not supported with this model")
 * @param topP        whether {@code top_p} may be sent
 */
public record ResponsesUpstreamOptions(boolean reasoning, boolean temperature, boolean topP) {
    /** A model that neither reasons nor refuses sampling parameters (gpt-4o, gpt-4.1). */
    public static final ResponsesUpstreamOptions PLAIN = new ResponsesUpstreamOptions(false, true, true);
}
