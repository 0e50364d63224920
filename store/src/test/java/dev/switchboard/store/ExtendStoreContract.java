package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.extend.Artifact;
import dev.switchboard.engine.extend.CatalogItem;
import dev.switchboard.engine.extend.CatalogStore;
import dev.switchboard.engine.extend.CatalogStore.OnConflict;
import dev.switchboard.engine.extend.CharacterCard;
import dev.switchboard.engine.extend.Installation;
import dev.switchboard.engine.extend.ItemHeader;
import dev.switchboard.engine.extend.ItemKind;
import dev.switchboard.engine.extend.ItemRef;
import dev.switchboard.engine.extend.ListQuery;
import dev.switchboard.engine.extend.Marketplace;
import dev.switchboard.engine.extend.McpServer;
import dev.switchboard.engine.extend.Page;
import dev.switchboard.engine.extend.Plugin;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillBody;
import dev.switchboard.engine.extend.SkillStore;
import dev.switchboard.engine.extend.Sort;
import dev.switchboard.engine.extend.TagCount;
import dev.switchboard.engine.extend.Transport;
import dev.switchboard.engine.extend.Visibility;
import dev.switchboard.engine.account.User;
import dev.switchboard.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every {@link CatalogStore} and {@link SkillStore} contract against a real database: round trips of every kind,
 * the list contract in SQL, likes and counts that stay exact under concurrency (also across two handles on one
 * database, as two gateway instances have), artifacts and installations.
 */
abstract class ExtendStoreContract extends StoreContract {
    private static final int USERS = 100;

    private JdbcCatalogStore catalog;
    private JdbcSkillStore skills;

    @BeforeEach
    final void openDatabase() {
        JdbcAccountStore accounts = new JdbcAccountStore(database);
        for (int i = 0; i < USERS; i++) {
            accounts.createUser(new User(user(i), "user-" + i, Optional.empty(), "payg", 0, T0), Optional.empty());
        }
        catalog = new JdbcCatalogStore(database);
        skills = new JdbcSkillStore(database);
    }

    private static String user(int i) {
        return String.format("usr_%03d", i);
    }

    private static SkillBody body(String prompt) {
        return SkillBody.read(Json.parse("{\"system_prompt\":\"" + prompt + "\",\"rules\":[{\"type\":\"replace\",\"find\":"
                + "\"\\\\bpls\\\\b\",\"replace\":\"please\",\"regex\":true}],\"hints\":{\"temperature\":0.2}}"), "body");
    }

    private static Skill skill(String id, String name, String description, Optional<String> owner, Visibility v, List<String> tags) {
        return new Skill(new ItemHeader(id, name, description, tags, T0, T0), owner,
                owner.map(o -> "user-" + o.substring(4)).orElse("switchboard"), owner.isEmpty(), v, body("Be " + name), 0, 0, 0,
                Optional.empty());
    }

    private static Skill official(String id, String name, String description, String... tags) {
        return skill(id, name, description, Optional.empty(), Visibility.PUBLIC, List.of(tags));
    }

    @Test
    void everyKindRoundTripsWithAllItsFields() {
        Skill s = skill("skl_1", "Reviewer", "Reviews code", Optional.of(user(1)), Visibility.UNLISTED, List.of("code", "review"));
        McpServer m = new McpServer(new ItemHeader("everything", "Everything", "Test server", List.of("test"), T0, T0),
                Optional.empty(), Transport.STDIO, Optional.of("npx -y @modelcontextprotocol/server-everything"),
                List.of("echo", "add"), Optional.of("https://github.com/modelcontextprotocol/servers"), true, true, 0);
        Marketplace mk = new Marketplace(new ItemHeader("starter", "Starter", "A set", List.of("set"), T0, T0),
                Optional.of("https://example.com/"),
                List.of(new ItemRef(ItemKind.SKILL, "skl_1"), new ItemRef(ItemKind.MCP_SERVER, "everything")), true, 0);
        ObjectNode ext = Json.object().put("depth_prompt", "x");
        CharacterCard c = new CharacterCard(new ItemHeader("ada", "Ada", "A mathematician", List.of("history"), T0, T0),
                "curious", "a salon", "Hello!", "<START>", "sys", "post", List.of("Hi", "Hey"), "notes \u00e9 \ud83d\ude00",
                "switchboard", "1.2", Optional.of("https://example.com/ada.png"), ext, 0, 0);
        Plugin p = new Plugin(new ItemHeader("cfg", "Config", "A config file", List.of("config"), T0, T0), "coding-tools",
                "1.0.0", true, Optional.empty(), Optional.empty());
        for (CatalogItem item : List.of(s, m, mk, c, p)) {
            assertThat(catalog.save(item, OnConflict.KEEP)).isTrue();
            assertThat(catalog.find(item.kind(), item.id())).contains(item);
        }
        assertThat(catalog.find(ItemKind.MCP_SERVER, "skl_1")).as("ids are per kind").isEmpty();
    }

    @Test
    void keepLeavesAnEntryAloneAndReplaceKeepsCountsOwnerAndCreationTime() {
        Skill s = skill("skl_1", "Reviewer", "first", Optional.of(user(1)), Visibility.PUBLIC, List.of("a"));
        catalog.save(s, OnConflict.KEEP);
        catalog.like(ItemKind.SKILL, "skl_1", user(2), T0);
        skills.recordUse(List.of("skl_1", "skl_1"));

        Skill other = skill("skl_1", "Other", "second", Optional.empty(), Visibility.PRIVATE, List.of("b"));
        assertThat(catalog.save(other, OnConflict.KEEP)).isFalse();
        assertThat(((Skill) catalog.find(ItemKind.SKILL, "skl_1").orElseThrow()).description()).isEqualTo("first");

        Skill edited = new Skill(new ItemHeader("skl_1", "Reviewer 2", "edited", List.of("b", "c"), T0.plusSeconds(60),
                T0.plusSeconds(60)), Optional.of(user(1)), "user-1", false, Visibility.PRIVATE, body("edited"), 0, 0, 0,
                Optional.empty());
        assertThat(catalog.save(edited, OnConflict.REPLACE)).isTrue();
        Skill read = (Skill) catalog.find(ItemKind.SKILL, "skl_1").orElseThrow();
        assertThat(read.name()).isEqualTo("Reviewer 2");
        assertThat(read.tags()).containsExactly("b", "c");
        assertThat(read.likes()).isEqualTo(1);
        assertThat(read.useCount()).isEqualTo(2);
        assertThat(read.createdAt()).isEqualTo(T0);
        assertThat(read.updatedAt()).isEqualTo(T0.plusSeconds(60));
        assertThat(catalog.tags(ItemKind.SKILL, Optional.empty(), 10)).as("private now: no public tags").isEmpty();
    }

    private Page<CatalogItem> list(CatalogStore.Audience audience, Map<String, String> params) {
        return catalog.list(ItemKind.SKILL, audience, ListQuery.parse(p -> Optional.ofNullable(params.get(p))));
    }

    private static List<String> ids(Page<CatalogItem> page) {
        return page.items().stream().map(CatalogItem::id).toList();
    }

    @Test
    void listsFollowTheListContract() {
        catalog.save(official("a-reviewer", "Code Reviewer", "Reviews pull requests", "code", "review"), OnConflict.KEEP);
        catalog.save(official("b-writer", "Writer", "Edits prose: 100% plain_english", "writing"), OnConflict.KEEP);
        catalog.save(official("c-sql", "SQL helper", "Writes queries", "code", "sql"), OnConflict.KEEP);
        catalog.save(skill("skl_priv", "Private code", "mine", Optional.of(user(1)), Visibility.PRIVATE, List.of("code")),
                OnConflict.KEEP);
        catalog.save(skill("skl_unl", "Unlisted code", "mine", Optional.of(user(1)), Visibility.UNLISTED, List.of("code")),
                OnConflict.KEEP);

        assertThat(ids(list(CatalogStore.LISTED, Map.of()))).containsExactly("a-reviewer", "c-sql", "b-writer");
        assertThat(list(CatalogStore.LISTED, Map.of()).total()).isEqualTo(3);
        assertThat(ids(list(CatalogStore.LISTED, Map.of("search", "CODE")))).containsExactly("a-reviewer", "c-sql");
        assertThat(ids(list(CatalogStore.LISTED, Map.of("search", "reviews pull")))).containsExactly("a-reviewer");
        assertThat(ids(list(CatalogStore.LISTED, Map.of("search", "reviews sql")))).isEmpty();
        assertThat(ids(list(CatalogStore.LISTED, Map.of("search", "100%")))).as("% is literal").containsExactly("b-writer");
        assertThat(ids(list(CatalogStore.LISTED, Map.of("search", "plain_e")))).as("_ is literal").containsExactly("b-writer");
        assertThat(ids(list(CatalogStore.LISTED, Map.of("search", "plainxe")))).isEmpty();
        assertThat(ids(list(CatalogStore.LISTED, Map.of("tags", "sql,writing")))).containsExactly("c-sql", "b-writer");
        assertThat(ids(list(CatalogStore.LISTED, Map.of("tags", "Review")))).containsExactly("a-reviewer");
        assertThat(ids(list(CatalogStore.LISTED, Map.of("tags", "nothing")))).isEmpty();

        Page<CatalogItem> p0 = list(CatalogStore.LISTED, Map.of("limit", "2", "sort", "name"));
        Page<CatalogItem> p1 = list(CatalogStore.LISTED, Map.of("limit", "2", "page", "1", "sort", "name"));
        Page<CatalogItem> p9 = list(CatalogStore.LISTED, Map.of("limit", "2", "page", "9", "sort", "name"));
        assertThat(ids(p0)).containsExactly("a-reviewer", "c-sql");
        assertThat(ids(p1)).containsExactly("b-writer");
        assertThat(p9.items()).isEmpty();
        assertThat(List.of(p0.total(), p1.total(), p9.total())).containsOnly(3L);
        assertThat(p1.page()).isEqualTo(1);
        assertThat(p1.limit()).isEqualTo(2);

        assertThat(ids(list(new CatalogStore.Audience.OwnedBy(user(1)), Map.of("sort", "name"))))
                .containsExactly("skl_priv", "skl_unl");
        assertThat(ids(list(CatalogStore.OPERATOR, Map.of()))).hasSize(5);
        assertThat(catalog.tags(ItemKind.SKILL, Optional.empty(), 10)).containsExactly(new TagCount("code", 2),
                new TagCount("review", 1), new TagCount("sql", 1), new TagCount("writing", 1));
        assertThat(catalog.tags(ItemKind.SKILL, Optional.of("r"), 10)).extracting(TagCount::tag).containsExactly("review",
                "writing");
    }

    @Test
    void sortOrders() {
        catalog.save(official("x", "Banana", "b"), OnConflict.KEEP);
        catalog.save(new Skill(new ItemHeader("y", "apple", "a", List.of(), T0.plusSeconds(5), T0.plusSeconds(5)),
                Optional.empty(), "switchboard", true, Visibility.PUBLIC, body("y"), 0, 0, 0, Optional.empty()), OnConflict.KEEP);
        catalog.save(official("z", "Cherry", "c"), OnConflict.KEEP);
        catalog.like(ItemKind.SKILL, "z", user(1), T0);
        skills.recordUse(List.of("x", "x"));
        Function<String, List<String>> sorted = s -> ids(list(CatalogStore.LISTED, Map.of("sort", s)));
        assertThat(sorted.apply("name")).containsExactly("y", "x", "z");
        assertThat(sorted.apply("recent")).containsExactly("y", "z", "x");
        assertThat(sorted.apply("likes")).containsExactly("z", "y", "x");
        assertThat(sorted.apply("popular")).containsExactly("x", "z", "y");
        assertThat(ListQuery.ALL.sort()).isEqualTo(Sort.POPULAR);
    }

    /** Runs every task at once (released together) and waits for all. */
    private static void concurrently(List<Callable<?>> tasks) throws Exception {
        ConcurrencySupport.concurrently(Math.min(tasks.size(), 32), tasks);
    }

    @Test
    void aHundredConcurrentLikesByAHundredUsersCountAHundredAcrossTwoInstances() throws Exception {
        catalog.save(official("liked", "Liked", "d"), OnConflict.KEEP);
        JdbcCatalogStore second = new JdbcCatalogStore(open());
        List<Callable<?>> likes = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            String u = user(i);
            JdbcCatalogStore instance = i % 2 == 0 ? catalog : second;
            likes.add(() -> instance.like(ItemKind.SKILL, "liked", u, T0));
            likes.add(() -> instance.like(ItemKind.SKILL, "liked", u, T0)); // the same user again: no second count
        }
        concurrently(likes);

        assertThat(((Skill) catalog.find(ItemKind.SKILL, "liked").orElseThrow()).likes()).isEqualTo(USERS);
        assertThat(catalog.likedBy(user(7), ItemKind.SKILL, List.of("liked", "other"))).containsExactly("liked");

        List<Callable<?>> unlikes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String u = user(i);
            unlikes.add(() -> second.unlike(ItemKind.SKILL, "liked", u));
            unlikes.add(() -> catalog.unlike(ItemKind.SKILL, "liked", u));
        }
        concurrently(unlikes);
        assertThat(catalog.like(ItemKind.SKILL, "liked", user(99), T0)).hasValue(60);
        assertThat(catalog.like(ItemKind.SKILL, "missing", user(1), T0)).isEmpty();
    }

    @Test
    void batchedUseCountsFromTwoInstancesAddUpAndUnknownIdsAreIgnored() throws Exception {
        catalog.save(official("counted", "Counted", "d"), OnConflict.KEEP);
        catalog.save(official("other", "Other", "d"), OnConflict.KEEP);
        JdbcSkillStore secondSkills = new JdbcSkillStore(open());
        List<Callable<?>> tasks = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            boolean first = i % 2 == 0;
            tasks.add(() -> {
                (first ? skills : secondSkills).recordUses(java.util.Map.of("counted", 3L, "other", 1L, "gone", 5L));
                return null;
            });
        }
        concurrently(tasks);

        assertThat(((Skill) catalog.find(ItemKind.SKILL, "counted").orElseThrow()).useCount()).isEqualTo(3L * USERS);
        assertThat(((Skill) catalog.find(ItemKind.SKILL, "other").orElseThrow()).useCount()).isEqualTo(USERS);
        assertThat(catalog.find(ItemKind.SKILL, "gone")).isEmpty();
    }

    @Test
    void usesForksAndInteractionsCountExactlyUnderConcurrency() throws Exception {
        catalog.save(official("popular", "Popular", "d"), OnConflict.KEEP);
        catalog.save(new CharacterCard(new ItemHeader("bot", "Bot", "d", List.of(), T0, T0), "", "", "Hi", "", "", "",
                List.of(), "", "switchboard", "1", Optional.empty(), Json.object(), 0, 0), OnConflict.KEEP);
        JdbcSkillStore secondSkills = new JdbcSkillStore(open());
        JdbcCatalogStore secondCatalog = new JdbcCatalogStore(open());
        List<Callable<?>> tasks = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            String u = user(i);
            boolean first = i % 2 == 0;
            tasks.add(() -> {
                (first ? skills : secondSkills).recordUse(List.of("popular"));
                return null;
            });
            tasks.add(() -> (first ? catalog : secondCatalog).interact("bot"));
            Skill fork = new Skill(new ItemHeader("skl_fork_" + i, "Fork", "d", List.of(), T0, T0), Optional.of(u), "user",
                    false, Visibility.PRIVATE, body("f"), 0, 0, 0, Optional.of("popular"));
            tasks.add(() -> (first ? skills : secondSkills).fork(fork, 200));
        }
        concurrently(tasks);

        Skill popular = (Skill) catalog.find(ItemKind.SKILL, "popular").orElseThrow();
        assertThat(popular.useCount()).isEqualTo(USERS);
        assertThat(popular.forks()).isEqualTo(USERS);
        assertThat(((CharacterCard) catalog.find(ItemKind.CHARACTER, "bot").orElseThrow()).interactions()).isEqualTo(USERS);
        assertThat(catalog.interact("nobody")).isEmpty();
        Skill aFork = (Skill) catalog.find(ItemKind.SKILL, "skl_fork_3").orElseThrow();
        assertThat(aFork.forkedFrom()).contains("popular");
    }

    @Test
    void forksRespectTheOwnersCapAndAVanishedSource() {
        catalog.save(official("src", "Source", "d"), OnConflict.KEEP);
        Skill fork1 = new Skill(new ItemHeader("skl_f1", "F", "d", List.of(), T0, T0), Optional.of(user(1)), "user-1", false,
                Visibility.PRIVATE, body("f"), 0, 0, 0, Optional.of("src"));
        Skill fork2 = new Skill(new ItemHeader("skl_f2", "F", "d", List.of(), T0, T0), Optional.of(user(1)), "user-1", false,
                Visibility.PRIVATE, body("f"), 0, 0, 0, Optional.of("src"));
        assertThat(skills.fork(fork1, 1)).isEqualTo(SkillStore.Created.CREATED);
        assertThat(skills.fork(fork2, 1)).isEqualTo(SkillStore.Created.LIMIT_REACHED);
        assertThat(((Skill) catalog.find(ItemKind.SKILL, "src").orElseThrow()).forks()).as("a refused fork counts nothing")
                .isEqualTo(1);
        assertThat(catalog.find(ItemKind.SKILL, "skl_f2")).isEmpty();
        catalog.delete(ItemKind.SKILL, "src");
        assertThat(skills.fork(fork2, 5)).isEqualTo(SkillStore.Created.NO_SOURCE);
        assertThat(((Skill) catalog.find(ItemKind.SKILL, "skl_f1").orElseThrow()).forkedFrom()).as("provenance stays")
                .contains("src");
        assertThat(skills.create(skill("skl_c", "C", "d", Optional.of(user(1)), Visibility.PUBLIC, List.of()), 1))
                .isEqualTo(SkillStore.Created.LIMIT_REACHED);
        assertThat(skills.create(skill("skl_c", "C", "d", Optional.of(user(2)), Visibility.PUBLIC, List.of()), 1))
                .isEqualTo(SkillStore.Created.CREATED);
    }

    @Test
    void installationsKeepTheirOrderAndGoWithTheSkill() {
        catalog.save(official("one", "One", "d"), OnConflict.KEEP);
        catalog.save(official("two", "Two", "d"), OnConflict.KEEP);
        assertThat(skills.install(user(1), "two", List.of(), T0)).isTrue();
        assertThat(skills.install(user(1), "one", List.of("model-a"), T0.plusSeconds(1))).isTrue();
        assertThat(skills.install(user(1), "two", List.of("model-b"), T0.plusSeconds(2))).as("reinstall").isTrue();
        assertThat(skills.install(user(1), "missing", List.of(), T0)).isFalse();

        List<Installation> installed = skills.installations(user(1));
        assertThat(installed).extracting(i -> i.skill().id()).containsExactly("two", "one");
        assertThat(installed.get(0).models()).containsExactly("model-b");
        assertThat(installed.get(0).installedAt()).isEqualTo(T0);
        assertThat(installed.get(1).appliesTo("model-a")).isTrue();
        assertThat(installed.get(1).appliesTo("model-b")).isFalse();
        assertThat(skills.installations(user(2))).isEmpty();

        assertThat(skills.uninstall(user(1), "one")).isTrue();
        assertThat(skills.uninstall(user(1), "one")).isFalse();
        catalog.like(ItemKind.SKILL, "two", user(3), T0);
        assertThat(catalog.delete(ItemKind.SKILL, "two")).isTrue();
        assertThat(catalog.delete(ItemKind.SKILL, "two")).isFalse();
        assertThat(skills.installations(user(1))).isEmpty();
        assertThat(catalog.likedBy(user(3), ItemKind.SKILL, List.of("two"))).isEmpty();
        assertThat(catalog.tags(ItemKind.SKILL, Optional.empty(), 10)).isEmpty();
    }

    @Test
    void artifactsAreStoredByHashServedByExactNameAndUnique() {
        Plugin p = new Plugin(new ItemHeader("cfg", "Config", "d", List.of(), T0, T0), "coding-tools", "1", false,
                Optional.empty(), Optional.empty());
        Plugin q = new Plugin(new ItemHeader("cfg2", "Config 2", "d", List.of(), T0, T0), "coding-tools", "1", false,
                Optional.empty(), Optional.empty());
        catalog.save(p, OnConflict.KEEP);
        catalog.save(q, OnConflict.KEEP);
        assertThat(catalog.list(ItemKind.PLUGIN, CatalogStore.LISTED, ListQuery.ALL.unpaged()).items())
                .as("without an artifact a plugin is not listed").isEmpty();

        byte[] v1 = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        Artifact a1 = new Artifact("cfg.json", "application/json", v1.length, "aa".repeat(32));
        assertThat(catalog.attachArtifact("cfg", a1, v1, T0)).isEqualTo(CatalogStore.Attached.ATTACHED);
        assertThat(catalog.attachArtifact("nope", a1, v1, T0)).isEqualTo(CatalogStore.Attached.NO_SUCH_PLUGIN);
        assertThat(catalog.attachArtifact("cfg2", a1, v1, T0)).isEqualTo(CatalogStore.Attached.FILE_NAME_TAKEN);

        CatalogStore.StoredArtifact stored = catalog.artifact("cfg.json").orElseThrow();
        assertThat(stored.content()).isEqualTo(v1);
        assertThat(stored.artifact()).isEqualTo(a1);
        assertThat(catalog.artifact("CFG.JSON")).isEmpty();
        assertThat(catalog.artifact("cfg.jso")).isEmpty();
        assertThat(((Plugin) catalog.find(ItemKind.PLUGIN, "cfg").orElseThrow()).artifact()).contains(a1);
        assertThat(catalog.list(ItemKind.PLUGIN, CatalogStore.LISTED, ListQuery.ALL.unpaged()).items()).hasSize(1);

        byte[] v2 = "{\"a\":2}".getBytes(StandardCharsets.UTF_8);
        Artifact a2 = new Artifact("cfg-v2.json", "application/json", v2.length, "bb".repeat(32));
        catalog.attachArtifact("cfg", a2, v2, T0);
        assertThat(catalog.artifact("cfg.json")).as("the old name is gone").isEmpty();
        assertThat(catalog.artifact("cfg-v2.json").orElseThrow().content()).isEqualTo(v2);
        catalog.save(new Plugin(new ItemHeader("cfg", "Renamed", "d", List.of(), T0, T0), "chat-apps", "2", true,
                Optional.empty(), Optional.empty()), OnConflict.REPLACE);
        assertThat(((Plugin) catalog.find(ItemKind.PLUGIN, "cfg").orElseThrow()).artifact()).as("metadata edits keep the file")
                .contains(a2);
        catalog.delete(ItemKind.PLUGIN, "cfg");
        assertThat(catalog.artifact("cfg-v2.json")).isEmpty();
    }

    @Test
    void markersAreSetOnce() {
        assertThat(catalog.marked("starter")).isFalse();
        assertThat(catalog.mark("starter", T0)).isTrue();
        assertThat(new JdbcCatalogStore(open()).mark("starter", T0)).isFalse();
        assertThat(catalog.marked("starter")).isTrue();
    }
}
