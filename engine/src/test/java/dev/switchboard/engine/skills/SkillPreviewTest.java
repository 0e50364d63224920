package dev.switchboard.engine.skills;

import static dev.switchboard.engine.skills.SkillsTestSupport.skill;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillLookup;
import dev.switchboard.engine.extend.Visibility;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The preview of a skill's effect on a sample conversation, as the dashboard's rules editor asks for it. */
class SkillPreviewTest {
    private final Map<String, Skill> skills = Map.of(
            "polite", skill("polite", "{'system_prompt': 'Be polite.', 'hints': {'temperature': 0.3}}"),
            "shout", skill("shout", "{'rules': [{'type': 'append', 'text': '!'}], 'hints': {'temperature': 0.9}}"),
            "secret", skill("secret", "{'system_prompt': 'x'}", Optional.of("usr_bob"), Visibility.PRIVATE));

    private final SkillLookup lookup = new SkillLookup() {
        @Override
        public Optional<Skill> usable(String id, String userId) {
            return Optional.ofNullable(skills.get(id)).filter(s -> s.readableBy(Optional.of(userId)));
        }

        @Override
        public List<Skill> installedFor(String userId, String modelId) {
            return List.of();
        }

        @Override
        public void recordUses(Map<String, Long> counts) {
            throw new AssertionError("a preview counts no use");
        }
    };

    private SkillPreview.Result preview(String json) {
        return SkillPreview.run(lookup, "usr_alice", Json.parse(json.replace('\'', '"')));
    }

    @Test
    void aDraftBodyShowsItsRulesOnTheSampleAndItsPromptBeforeTheCallers() {
        SkillPreview.Result r = preview("{'body': {'system_prompt': 'Review.', 'rules': [{'type': 'replace', 'find': '(?i)\\\\bpls\\\\b',"
                + " 'replace': 'please', 'regex': true}], 'hints': {'max_tokens': 100}}, 'system': 'Mine.', 'message': 'PLS look'}");

        assertThat(r.skills()).containsExactly(SkillPreview.DRAFT);
        assertThat(r.system()).containsExactly("Review.", "Mine.");
        assertThat(r.messages()).containsExactly(Message.user("please look"));
        assertThat(r.hints().maxTokens()).hasValue(100);
    }

    @Test
    void storedSkillsStackInOrderOverAConversation() {
        SkillPreview.Result r = preview("{'skills': ['polite', 'shout'], 'messages': [{'role': 'user', 'content': 'a'},"
                + " {'role': 'assistant', 'content': 'b'}, {'role': 'user', 'content': 'c'}]}");

        assertThat(r.skills()).containsExactly("polite", "shout");
        assertThat(r.system()).containsExactly("Be polite.");
        assertThat(r.messages()).extracting(Message::text).containsExactly("a", "b", "c!");
        assertThat(r.hints().temperature()).hasValue(0.9);
    }

    @Test
    void refusalsNameTheField() {
        assertParam("{'skill': 'secret', 'message': 'hi'}", "skill");
        assertParam("{'skills': ['polite', 'nope'], 'message': 'hi'}", "skills[1]");
        assertParam("{'body': {'rules': [{'type': 'replace', 'find': '(', 'regex': true}]}, 'message': 'hi'}", "body.rules[0].find");
        assertParam("{'message': 'hi'}", "body");
        assertParam("{'skill': 'polite', 'body': {'system_prompt': 'x'}, 'message': 'hi'}", "skills");
        assertParam("{'skill': 'polite'}", "message");
        assertParam("{'skill': 'polite', 'messages': [{'role': 'tool', 'content': 'x'}]}", "messages[0].role");
        assertParam("{'skill': 'polite', 'message': 'hi', 'model': 'x'}", "model");
    }

    private void assertParam(String json, String param) {
        assertThatThrownBy(() -> preview(json)).as(json).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.error().status()).isEqualTo(400);
            assertThat(e.error().param()).contains(param);
        });
    }
}
