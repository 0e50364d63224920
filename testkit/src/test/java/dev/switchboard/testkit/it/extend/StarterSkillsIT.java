package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastSent;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.openAiLastUser;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.openAiSystem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillHints;
import dev.switchboard.server.extend.StarterCatalog;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.extend.Browser.Answer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every official skill of the shipped starter catalog, applied once to a chat request on a fresh database: what
 * the upstream receives is the skill's system prompt before the caller's text, its rules' rewrite of the
 * caller's message, and each of its hints in the parameter it fills.
 */
class StarterSkillsIT {
    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(SkillsItSupport.CONFIG);

    /** A message that every rule of the starter catalog has something to do with. */
    private static final String MESSAGE = "pls thx b/c w/ this, w/o that; afaik imo PLZ";

    /** What the rules of the rule-bearing starter skills make of {@link #MESSAGE}. */
    private static final Map<String, String> REWRITTEN = Map.of(
            "shorthand-expander", "please thanks because with this, without that; as far as I know in my opinion please",
            "plain-text-answers", MESSAGE + "\n\n(Reply in plain text: no Markdown, no headings, no tables, no code fences.)");

    private static TestGateway gateway;

    @BeforeAll
    static void setUp() {
        gateway = GATEWAY.gateway();
    }

    static Stream<Skill> starterSkills() {
        return StarterCatalog.seed(Instant.now()).items().stream().filter(i -> i instanceof Skill).map(Skill.class::cast);
    }

    @Test
    void theStarterCatalogShipsOfficialSkillsAndEveryRuleBearingOneHasItsExpectationHere() {
        List<Skill> skills = starterSkills().toList();
        assertThat(skills).hasSizeGreaterThanOrEqualTo(24);
        assertThat(skills.stream().filter(s -> !s.body().rules().isEmpty()).map(Skill::id)).containsExactlyInAnyOrderElementsOf(
                REWRITTEN.keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("starterSkills")
    void appliedOnceItsEffectReachesTheUpstream(Skill skill) {
        JsonNode served = new Browser(gateway.baseUrl()).get("/v1/skills/" + skill.id()).json();
        assertThat(served.path("official").asBoolean()).as("loaded as an official skill").isTrue();

        Answer a = new Browser(gateway.baseUrl()).send("POST", "/v1/chat/completions", Optional.of("""
                {"model": "oa-chat", "skill": "%s", "messages": [{"role": "user", "content": "%s"}]}
                """.formatted(skill.id(), MESSAGE)), Map.of("authorization", "Bearer " + gateway.apiKey()));
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        JsonNode sent = lastSent(gateway, "up-skills");

        assertThat(openAiSystem(sent)).isEqualTo(skill.body().systemPrompt().orElse(""));
        assertThat(openAiLastUser(sent)).isEqualTo(REWRITTEN.getOrDefault(skill.id(), MESSAGE));
        SkillHints hints = skill.body().hints();
        assertNumber(sent, "temperature", hints.temperature().isPresent() ? Optional.of(hints.temperature().getAsDouble())
                : Optional.empty());
        assertNumber(sent, "top_p", hints.topP().isPresent() ? Optional.of(hints.topP().getAsDouble()) : Optional.empty());
        assertNumber(sent, "max_completion_tokens", hints.maxTokens().isPresent() ? Optional.of((double) hints.maxTokens().getAsInt())
                : Optional.empty());
        assertThat(sent.has("reasoning_effort") ? Optional.of(sent.path("reasoning_effort").asText()) : Optional.empty())
                .isEqualTo(hints.reasoningEffort());
        assertThat(hints.isEmpty() && skill.body().systemPrompt().isEmpty() && skill.body().rules().isEmpty())
                .as("a skill that does nothing").isFalse();
    }

    private static void assertNumber(JsonNode sent, String field, Optional<Double> expected) {
        assertThat(sent.has(field) ? Optional.of(sent.path(field).asDouble()) : Optional.empty()).as(field).isEqualTo(expected);
    }
}
