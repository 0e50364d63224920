package dev.switchboard.testkit;

/**
 * Token counts of one scripted answer. {@code completionTokens} includes {@code reasoningTokens} and
 * {@code promptTokens} includes {@code cachedTokens}, as OpenAI counts them.
 */
record ScriptedUsage(int promptTokens, int completionTokens, int reasoningTokens, int cachedTokens) {

    int totalTokens() {
        return promptTokens + completionTokens;
    }
}
