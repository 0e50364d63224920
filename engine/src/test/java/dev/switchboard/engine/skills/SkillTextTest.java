package dev.switchboard.engine.skills;

import static dev.switchboard.engine.skills.SkillsTestSupport.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** System prompts first and rules over the caller's text only, in stack order. */
class SkillTextTest {
    private static final CacheMarker MARK = new CacheMarker(CacheMarker.Ttl.FIVE_MINUTES);

    private static ChatRequest.Builder ask(Message... messages) {
        return ChatRequest.builder("m").messages(List.of(messages));
    }

    private static List<String> systemTexts(ChatRequest r) {
        return r.system().stream().map(b -> ((ContentBlock.Text) b).text()).toList();
    }

    @Test
    void systemPromptsComeFirstInStackOrderAndTheCallersMarkerStaysOnItsBlock() {
        ChatRequest r = ask(Message.user("hi"))
                .system(List.of(new ContentBlock.Text("Caller's prompt.", Optional.of(MARK), Optional.empty()))).build();
        ChatRequest out = SkillText.apply(r, List.of(named("a", "{'system_prompt': 'First.'}", "skills[0]"),
                named("b", "{'system_prompt': 'Second.'}", "skills[1]")));

        assertThat(systemTexts(out)).containsExactly("First.", "Second.", "Caller's prompt.");
        assertThat(out.system().get(0).cache()).isEmpty();
        assertThat(out.system().get(1).cache()).isEmpty();
        assertThat(out.system().get(2).cache()).contains(MARK);
        assertThat(out.messages()).isEqualTo(r.messages());
    }

    @Test
    void rulesRunInStackOrderOverTheLastUserMessageByDefault() {
        ChatRequest r = ask(Message.user("first pls"), Message.assistant("ok"), Message.user("pls review")).build();
        ChatRequest out = SkillText.apply(r, List.of(
                named("a", "{'rules': [{'type': 'replace', 'find': '\\\\bpls\\\\b', 'replace': 'please', 'regex': true}]}", "skill"),
                named("b", "{'rules': [{'type': 'replace', 'find': 'please', 'replace': 'kindly'},"
                        + " {'type': 'prepend', 'text': '> '}, {'type': 'append', 'text': ' <'}]}", "skills[0]")));

        assertThat(out.messages()).extracting(Message::text).containsExactly("first pls", "ok", "> kindly review <");
    }

    @Test
    void allUserRulesChangeEveryUserMessageAndNeverTheAssistantsOrTheSystem() {
        ChatRequest r = ask(Message.user("a thx"), Message.assistant("thx back"), Message.user("b thx"))
                .system(List.of(ContentBlock.Text.of("system thx"))).build();
        ChatRequest out = SkillText.apply(r, List.of(
                named("a", "{'rules': [{'type': 'replace', 'find': 'thx', 'replace': 'thanks', 'target': 'all_user'}]}", "skill")));

        assertThat(out.messages()).extracting(Message::text).containsExactly("a thanks", "thx back", "b thanks");
        assertThat(systemTexts(out)).containsExactly("system thx");
    }

    @Test
    void aPrefillAToolResultAndAToolDefinitionAreNeverRewritten() {
        ToolSpec tool = new ToolSpec("lookup", Optional.of("Looks up pls"), Json.parse("{\"type\":\"object\"}"),
                Optional.empty(), Optional.empty());
        Message question = Message.user("pls look it up");
        Message call = new Message(Role.ASSISTANT, List.of(ContentBlock.ToolCall.of("c1", "lookup", "{}")));
        Message result = new Message(Role.USER, List.of(new ContentBlock.ToolResult("c1", Optional.of("lookup"),
                List.of(ContentBlock.Text.of("pls result")), false, Optional.empty())));
        Message prefill = Message.assistant("pls");
        ChatRequest r = ask(question, call, result, prefill).tools(List.of(tool)).build();

        ChatRequest out = SkillText.apply(r, List.of(named("a", "{'rules': [{'type': 'replace', 'find': 'pls',"
                + " 'replace': 'please'}, {'type': 'append', 'text': '!'}]}", "skill")));

        assertThat(out.messages().get(0).text()).as("the last user message that holds text: the question")
                .isEqualTo("please look it up!");
        assertThat(out.messages().subList(1, 4)).containsExactly(call, result, prefill);
        assertThat(out.tools()).containsExactly(tool);
    }

    @Test
    void replaceWorksOnEveryTextBlockPrependOnTheFirstAppendOnTheLastAndMarkersStay() {
        Message m = new Message(Role.USER, List.of(ContentBlock.Text.of("one x"),
                new ContentBlock.Text("two x", Optional.of(MARK), Optional.empty())));
        ChatRequest out = SkillText.apply(ask(m).build(), List.of(named("a", "{'rules': [{'type': 'replace', 'find': 'x',"
                + " 'replace': 'y'}, {'type': 'prepend', 'text': '['}, {'type': 'append', 'text': ']'}]}", "skill")));

        List<ContentBlock> blocks = out.messages().getFirst().content();
        assertThat(blocks).containsExactly(ContentBlock.Text.of("[one y"),
                new ContentBlock.Text("two y]", Optional.of(MARK), Optional.empty()));
    }

    @Test
    void aRuleThatEmptiesAMessageIsRefusedNamingTheSkillsField() {
        ChatRequest r = ask(Message.user("hello")).build();
        assertThatThrownBy(() -> SkillText.apply(r, List.of(named("wipe", "{'rules': [{'type': 'replace', 'find': '.+',"
                + " 'replace': '', 'regex': true}]}", "skills[2]"))))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().param()).contains("skills[2]");
                    assertThat(e.error().message()).contains("skill 'wipe'").contains("no text");
                });
    }

    @Test
    void aRuleThatWouldGrowTheTextPastTheLimitIsRefusedNamingTheSkillsField() {
        ChatRequest r = ask(Message.user("x".repeat(2_000))).build();
        // every one of 2,000 characters becomes 1,000: two million more, past the limit of one rule
        String body = "{'rules': [{'type': 'replace', 'find': 'x', 'replace': '" + "y".repeat(1_000) + "'}]}";
        assertThatThrownBy(() -> SkillText.apply(r, List.of(named("grow", body, "x-switchboard-skills"))))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().param()).contains("x-switchboard-skills");
                    assertThat(e.error().message()).contains("skill 'grow'");
                });
    }

    @Test
    void aPathologicalPatternOverAHundredKilobyteMessageRunsInLinearTime() {
        // (a+)+b, (a|aa)*c and (x+x+)+y backtrack exponentially in a backtracking engine on a long run of
        // a's (x's) without the final letter; RE2 matches in one pass. A generous outer bound, not a benchmark.
        String text = "a".repeat(50_000) + "x".repeat(50_000) + "!";
        ChatRequest r = ask(Message.user(text)).build();
        StackedSkill nasty = named("nasty", "{'rules': ["
                + "{'type': 'replace', 'find': '(a+)+b', 'replace': 'B', 'regex': true},"
                + "{'type': 'replace', 'find': '(a|aa)*c', 'replace': 'C', 'regex': true},"
                + "{'type': 'replace', 'find': '(x+x+)+y', 'replace': 'Y', 'regex': true, 'target': 'all_user'}]}", "skill");

        ChatRequest out = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> SkillText.apply(r, List.of(nasty)));

        assertThat(out.messages().getFirst().text()).isEqualTo(text);
    }
}
