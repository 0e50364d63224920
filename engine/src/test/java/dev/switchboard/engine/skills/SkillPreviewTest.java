package dev.switchboard.engine.skills;

import static dev.switchboard.engine.skills.SkillsTestSupport.skill;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.extend.InMemorySkillLookup;
import dev.switchboard.engine.extend.Visibility;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.wire.Json;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The preview of a skill's effect on a sample conversation, as the dashboard's rules editor asks for it. */
class SkillPreviewTest {
    private final InMemorySkillLookup lookup = new InMemorySkillLookup();

    @BeforeEach
    void skills() {
        lookup.add(skill("polite", "{'system_prompt': 'Be polite.', 'hints': {'temperature': 0.3}}"));
        lookup.add(skill("shout", "{'rules': [{'type': 'append', 'text': '!'}], 'hints': {'temperature': 0.9}}"));
        lookup.add(skill("secret", "{'system_prompt': 'x'}", Optional.of("usr_bob"), Visibility.PRIVATE));
    }

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
        assertThat(lookup.uses()).as("a preview counts no use").isEmpty();
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
