package dev.switchboard.engine.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.defaults.SavedDefaultsService;
import dev.switchboard.engine.defaults.DefaultParams;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillBody;
import dev.switchboard.engine.extend.InMemorySkillLookup;
import dev.switchboard.engine.extend.ItemHeader;
import dev.switchboard.engine.extend.Visibility;
import dev.switchboard.engine.media.FetchLimits;
import dev.switchboard.engine.media.ImageFetcher;
import dev.switchboard.engine.media.ImageInliner;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.route.FailoverRouter;
import dev.switchboard.engine.skills.SkillUses;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.SkillRef;
import dev.switchboard.wire.Json;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The skills stage in the pipeline: which skills apply to which candidate, the order against saved defaults,
 * the refusals, the context window seeing a skill's prompt, and the uses a billed answer counts.
 */
class ChatPipelineSkillsTest {
    private static final Caller ALICE = new Caller("usr_alice", "key_1", "payg", List.of(), List.of());

    private final RecordingAdapter adapter = new RecordingAdapter("ok");
    private final List<Attempt> attempts = adapter.attempts;
    private final Set<String> failing = adapter.failing;
    private final InMemorySkillLookup lookup = new InMemorySkillLookup();
    private final Map<String, Long> uses = lookup.uses();
    private final Map<String, String> savedDefaults = new HashMap<>();


    private final SkillUses skillUses = new SkillUses(lookup::recordUses);

    private static ModelEntry model(String id, long context, int maxOutput, Capabilities caps) {
        return new ModelEntry(id, List.of(), Optional.empty(), "t", context, maxOutput, caps, ReasoningProfile.NONE,
                Pricing.FREE, List.of(), List.of(new RouteTarget("p", "up-" + id)));
    }

    private final Catalog catalog = new Catalog(
            List.of(new ProviderConfig("p", ProviderType.OPENAI, URI.create("http://127.0.0.1:1"), List.of("k"),
                    Timeouts.DEFAULT, Map.of(), false)),
            List.of(model("main", 100_000, 1_000, new Capabilities(true, false, false, false, false)),
                    model("backup", 100_000, 1_000, Capabilities.TEXT_ONLY),
                    model("tiny", 300, 50, Capabilities.TEXT_ONLY)));

    private final SavedDefaultsService.Lookup defaults = (user, m) ->
            Optional.ofNullable(savedDefaults.get(user + "/" + m)).map(DefaultParams::parseStored);

    private final ChatPipeline chat = new ChatPipeline(catalog, defaults, lookup, skillUses, Admission.ADMIT_ALL,
            new FailoverRouter(catalog, Map.of(ProviderType.OPENAI, adapter), new GatewayMetrics(new SimpleMeterRegistry()),
                    new ImageInliner(new ImageFetcher(FetchLimits.DEFAULT))),
            Settlement.RECORD_NOTHING, new GatewayMetrics(new SimpleMeterRegistry()));

    private Skill add(String id, String body) {
        return add(id, body, Optional.empty(), Visibility.PUBLIC);
    }

    private Skill add(String id, String body, Optional<String> owner, Visibility visibility) {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        Skill s = new Skill(new ItemHeader(id, id, "", List.of(), t, t), owner, owner.orElse("switchboard"), owner.isEmpty(),
                visibility, SkillBody.read(Json.parse(body.replace('\'', '"')), "body"), 0, 0, 0, Optional.empty());
        return lookup.add(s);
    }

    private static ChatRequest.Builder ask(String model, SkillRef... refs) {
        return ChatRequest.builder(model).addMessage(Message.user("pls help")).skills(List.of(refs));
    }

    private static SkillRef ref(String id, String field) {
        return new SkillRef(id, field);
    }

    private RequestTrace complete(ChatRequest request) {
        RequestTrace trace = new RequestTrace("req_1", "test");
        chat.complete(ALICE, request, trace);
        skillUses.flush();
        return trace;
    }

    private ChatRequest sent() {
        return attempts.getLast().request();
    }

    private static String system(ChatRequest r) {
        return r.system().stream().map(b -> ((ContentBlock.Text) b).text()).reduce((a, b) -> a + "|" + b).orElse("");
    }

    @Test
    void aNamedSkillReachesTheUpstreamAndCountsAUseOfTheBilledAnswer() {
        add("reviewer", "{'system_prompt': 'Review.', 'rules': [{'type': 'replace', 'find': 'pls', 'replace': 'please'}],"
                + " 'hints': {'temperature': 0.2}}");
        RequestTrace trace = complete(ask("main", ref("reviewer", "skill")).build());

        assertThat(system(sent())).isEqualTo("Review.");
        assertThat(sent().messages().getFirst().text()).isEqualTo("please help");
        assertThat(sent().sampling().temperature()).contains(0.2);
        assertThat(trace.skills()).containsExactly("reviewer");
        assertThat(uses).containsExactly(Map.entry("reviewer", 1L));
    }

    @Test
    void anUnknownSkillAndAnotherUsersPrivateSkillAreTheSame400NamingTheField() {
        add("mine", "{'system_prompt': 'x'}", Optional.of("usr_bob"), Visibility.PRIVATE);
        add("concise", "{'system_prompt': 'Be brief.'}");
        for (String id : List.of("nope", "mine", "../etc")) {
            assertThatThrownBy(() -> complete(ask("main", ref("concise", "skill"), ref(id, "skills[0]")).build()))
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.error().status()).isEqualTo(400);
                        assertThat(e.error().param()).contains("skills[0]");
                        assertThat(e.error().message()).contains("Unknown skill '" + id + "'");
                    });
        }
        assertThat(attempts).isEmpty();
    }

    @Test
    void theCallersOwnPrivateAndAnyoneElsesUnlistedSkillsApply() {
        add("own", "{'system_prompt': 'Own.'}", Optional.of("usr_alice"), Visibility.PRIVATE);
        add("shared", "{'system_prompt': 'Shared.'}", Optional.of("usr_bob"), Visibility.UNLISTED);
        complete(ask("main", ref("own", "skills[0]"), ref("shared", "skills[1]")).build());
        assertThat(system(sent())).isEqualTo("Own.|Shared.");
    }

    @Test
    void moreThanEightSkillsIsA400NamingTheFirstOneTooManyAndARepeatCountsOnce() {
        List<SkillRef> refs = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            add("s" + i, "{'system_prompt': 'S" + i + ".'}");
            refs.add(ref("s" + i, "skills[" + i + "]"));
        }
        assertThatThrownBy(() -> complete(ChatRequest.builder("main").addMessage(Message.user("hi")).skills(refs).build()))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().param()).contains("skills[8]");
                    assertThat(e.error().message()).contains("at most 8 skills");
                });

        List<SkillRef> repeated = new ArrayList<>(refs.subList(0, 8));
        repeated.add(ref("s0", "x-switchboard-skills"));
        complete(ChatRequest.builder("main").addMessage(Message.user("hi")).skills(repeated).build());
        assertThat(sent().system()).hasSize(8);
        assertThat(uses.get("s0")).isEqualTo(1L);
    }

    @Test
    void installedSkillsApplyWhenNoneIsNamedPerModelAndANamedSkillReplacesThem() {
        lookup.install("usr_alice", "main", add("inst-a", "{'system_prompt': 'A.'}"));
        lookup.install("usr_alice", "main", add("inst-b", "{'system_prompt': 'B.'}"));
        add("named", "{'system_prompt': 'Named.'}");

        complete(ask("main").build());
        assertThat(system(sent())).isEqualTo("A.|B.");
        complete(ask("backup").build());
        assertThat(sent().system()).as("installed for another model only").isEmpty();
        complete(ask("main", ref("named", "skill")).build());
        assertThat(system(sent())).isEqualTo("Named.");
        assertThat(uses).containsExactlyInAnyOrderEntriesOf(Map.of("inst-a", 1L, "inst-b", 1L, "named", 1L));
    }

    @Test
    void aFallbackGetsItsOwnInstalledSkillsAndTheAnswerCountsOnlyThose() {
        lookup.install("usr_alice", "main", add("for-main", "{'system_prompt': 'Main.'}"));
        lookup.install("usr_alice", "backup", add("for-backup", "{'system_prompt': 'Backup.'}"));
        failing.add("up-main");
        RequestTrace trace = complete(ask("main").fallbackModels(List.of("backup")).build());

        assertThat(system(sent())).isEqualTo("Backup.");
        assertThat(trace.skills()).containsExactly("for-backup");
        assertThat(uses).containsExactly(Map.entry("for-backup", 1L));
    }

    @Test
    void aRequestNothingAnsweredCountsNoUse() {
        add("s", "{'system_prompt': 'S.'}");
        failing.add("up-main");
        assertThatThrownBy(() -> complete(ask("main", ref("s", "skill")).build())).isInstanceOf(GatewayException.class);
        skillUses.flush();
        assertThat(uses).isEmpty();
    }

    @Test
    void hintsComeBeforeSavedDefaultsAndAfterTheCallersValuesAndAreCappedByTheModel() {
        add("h", "{'hints': {'temperature': 0.2, 'max_tokens': 5000}}");
        savedDefaults.put("usr_alice/main", "{\"temperature\": 0.9, \"top_p\": 0.5, \"seed\": 7, \"max_tokens\": 10}");

        complete(ask("main", ref("h", "skill")).build());
        assertThat(sent().sampling().temperature()).contains(0.2);
        assertThat(sent().sampling().topP()).as("temperature and top_p are one choice, the skill's").isEmpty();
        assertThat(sent().sampling().seed()).as("what no hint sets still comes from the defaults").hasValue(7);
        assertThat(sent().maxTokens()).as("capped at max_output_tokens").hasValue(1_000);

        complete(ask("main", ref("h", "skill")).sampling(Sampling.DEFAULT.withTemperature(Optional.of(1.5))).maxTokens(20).build());
        assertThat(sent().sampling().temperature()).contains(1.5);
        assertThat(sent().maxTokens()).hasValue(20);

        complete(ask("main").build());
        assertThat(sent().sampling().temperature()).as("no skill: the saved default").contains(0.9);
    }

    @Test
    void aSkillsSystemPromptCountsTowardTheContextWindow() {
        add("long", "{'system_prompt': '" + "word ".repeat(300) + "'}");
        assertThatThrownBy(() -> complete(ask("tiny", ref("long", "skill")).build()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().param()).contains("messages"));
        complete(ask("tiny").build());
        assertThat(attempts).hasSize(1);
    }

    @Test
    void countTokensSeesTheSkillsPromptAndCountsNoUse() {
        add("long", "{'system_prompt': '" + "x".repeat(4_000) + "'}");
        long without = chat.countTokens(ALICE, ask("main").build(), new RequestTrace("r", "count_tokens"));
        long with = chat.countTokens(ALICE, ask("main", ref("long", "skill")).build(), new RequestTrace("r", "count_tokens"));
        skillUses.flush();
        assertThat(with - without).isBetween(900L, 1_100L);
        assertThat(uses).isEmpty();
    }
}
