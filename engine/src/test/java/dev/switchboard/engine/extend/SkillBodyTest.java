package dev.switchboard.engine.extend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.GatewayException;
import dev.switchboard.wire.Json;
import org.junit.jupiter.api.Test;

/** Skill bodies are checked when written (RE2 patterns, replacement references, sizes) and rewrite as written. */
class SkillBodyTest {

    private static SkillBody body(String json) {
        return SkillBody.read(Json.parse(json), "body");
    }

    private static String refusedField(String json) {
        return RefusalSupport.refusedParam(() -> body(json), json);
    }

    @Test
    void rulesRunInOrderOnTheirTargets() {
        SkillBody b = body("""
                {"system_prompt": "Be brief.", "rules": [
                  {"type": "replace", "find": "(?i)\\\\bpls\\\\b", "replace": "please", "regex": true},
                  {"type": "replace", "find": "a.b", "replace": "$0"},
                  {"type": "replace", "find": "(\\\\w+)@(?P<host>\\\\w+)", "replace": "${host} at $1", "regex": true},
                  {"type": "prepend", "text": "Q: ", "target": "all_user"},
                  {"type": "append", "text": " (thanks)"}],
                 "hints": {"temperature": 0.2, "max_tokens": 100, "reasoning_effort": "high"}}""");
        String text = "PLS ping a.b and axb, me@home";
        for (RewriteRule r : b.rules()) {
            text = r.apply(text);
        }
        assertThat(text).isEqualTo("Q: please ping $0 and axb, home at me (thanks)");
        assertThat(b.rules().get(3).target()).isEqualTo(RuleTarget.ALL_USER);
        assertThat(b.rules().get(4).target()).as("default target").isEqualTo(RuleTarget.LAST_USER);
        assertThat(b.hints().maxTokens()).hasValue(100);
        assertThat(SkillBody.read(b.toJson(), "body")).as("round trip").isEqualTo(b);
    }

    @Test
    void patternsThatRe2CannotRunInLinearTimeAreRefusedAtWriteTime() {
        assertThat(refusedField("{\"rules\":[{\"type\":\"replace\",\"find\":\"(a)\\\\1\",\"regex\":true}]}"))
                .as("backreferences").isEqualTo("body.rules[0].find");
        assertThat(refusedField("{\"rules\":[{\"type\":\"replace\",\"find\":\"(?=a)\",\"regex\":true}]}"))
                .as("lookahead").isEqualTo("body.rules[0].find");
        assertThat(refusedField("{\"rules\":[{\"type\":\"replace\",\"find\":\"[\",\"regex\":true}]}")).isEqualTo("body.rules[0].find");
    }

    @Test
    void replacementReferencesMustNameGroupsOfThePattern() {
        assertThat(refusedField("{\"rules\":[{\"type\":\"replace\",\"find\":\"(a)\",\"replace\":\"$2\",\"regex\":true}]}"))
                .isEqualTo("body.rules[0].replace");
        assertThat(refusedField("{\"rules\":[{\"type\":\"replace\",\"find\":\"a\",\"replace\":\"${x}\",\"regex\":true}]}"))
                .isEqualTo("body.rules[0].replace");
        assertThat(refusedField("{\"rules\":[{\"type\":\"replace\",\"find\":\"a\",\"replace\":\"cost $\",\"regex\":true}]}"))
                .isEqualTo("body.rules[0].replace");
        assertThat(refusedField("{\"rules\":[{\"type\":\"replace\",\"find\":\"a\",\"replace\":\"x\\\\\",\"regex\":true}]}"))
                .isEqualTo("body.rules[0].replace");
        assertThat(body("{\"rules\":[{\"type\":\"replace\",\"find\":\"a\",\"replace\":\"cost \\\\$5\",\"regex\":true}]}")
                .rules().getFirst().apply("a")).isEqualTo("cost $5");
    }

    @Test
    void aRuleThatWouldBlowUpTheMessageRefusesTheRequestInsteadOfStallingIt() {
        RewriteRule growing = body("{\"rules\":[{\"type\":\"replace\",\"find\":\"\\\\b\",\"replace\":\"" + "x".repeat(2000)
                + "\",\"regex\":true}]}").rules().getFirst();
        assertThatThrownBy(() -> growing.apply("word ".repeat(1000))).isInstanceOf(GatewayException.class)
                .hasMessageContaining("would add more than");
    }

    @Test
    void sizesShapesAndHintsAreCheckedWithTheFieldNamed() {
        assertThat(refusedField("{}")).isEqualTo("body");
        assertThat(refusedField("{\"system_prompt\":\"   \"}")).isEqualTo("body");
        assertThat(refusedField("{\"system_prompt\":\"" + "p".repeat(Limits.SYSTEM_PROMPT + 1) + "\"}")).isEqualTo("body.system_prompt");
        assertThat(refusedField("{\"rules\":{}}")).isEqualTo("body.rules");
        assertThat(refusedField("{\"rules\":[{\"type\":\"replace\",\"find\":\"\"}]}")).isEqualTo("body.rules[0].find");
        assertThat(refusedField("{\"rules\":[{\"type\":\"prepend\"}]}")).isEqualTo("body.rules[0].text");
        assertThat(refusedField("{\"rules\":[{\"type\":\"prepend\",\"text\":\"x\",\"find\":\"y\"}]}")).isEqualTo("body.rules[0].find");
        assertThat(refusedField("{\"rules\":[{\"type\":\"append\",\"text\":\"" + "t".repeat(Limits.RULE_TEXT + 1) + "\"}]}"))
                .isEqualTo("body.rules[0].text");
        assertThat(refusedField("{\"system_prompt\":\"p\",\"hints\":{\"top_p\":1.5}}")).isEqualTo("body.hints.top_p");
        assertThat(refusedField("{\"system_prompt\":\"p\",\"hints\":{\"max_tokens\":0}}")).isEqualTo("body.hints.max_tokens");
        assertThat(refusedField("{\"system_prompt\":\"p\",\"hints\":{\"max_tokens\":1.5}}")).isEqualTo("body.hints.max_tokens");
        assertThat(refusedField("{\"system_prompt\":1}")).isEqualTo("body.system_prompt");
        assertThat(body("{\"hints\":{\"temperature\":0}}").hints().temperature()).hasValue(0.0);
        assertThat(SkillBody.stored(Json.parse("{\"system_prompt\":\"" + "p".repeat(Limits.SYSTEM_PROMPT + 5) + "\"}"))
                .systemPrompt()).as("stored bodies are not re-limited").isPresent();
    }
}
