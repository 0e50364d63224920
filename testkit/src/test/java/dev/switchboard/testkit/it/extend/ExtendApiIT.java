package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static dev.switchboard.testkit.GatewayConfigSupport.simulatorProvider;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.extend.Browser.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every catalog route of spec section 4, the installed-skill routes and the operator routes, driven over real
 * HTTP by browsers with cookie jars: sign-in, CSRF tokens, sign-out; the list contract and its edge cases,
 * ownership, visibility, forks, likes, interactions, downloads; and the refusals without a session (401) and
 * without the CSRF token (403). The gateway starts on an empty database, so the starter catalog is loaded.
 */
class ExtendApiIT {
    static final String CONFIG = TestGateway.DEFAULT_HEADER + providers(simulatorProvider("sim"))
            + models(model("sim-chat").aliases("sim-alias").route("sim/switchboard-demo"));
    static final String PASSWORD = "correct horse battery";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(CONFIG);

    private static TestGateway gateway;
    private static Browser alice;
    private static Browser bob;
    private static Browser carol;
    private static Browser anonymous;

    @BeforeAll
    static void signIn() {
        gateway = GATEWAY.gateway();
        for (String name : List.of("alice", "bob", "carol", "dave", "erin")) {
            Answer a = admin("POST", "/admin/v1/users", "{\"name\":\"" + name + "\",\"email\":\"" + name
                    + "@example.com\",\"password\":\"" + PASSWORD + "\"}");
            assertThat(a.status()).as(a.body()).isEqualTo(201);
        }
        String carolId = userId("carol");
        assertThat(admin("PUT", "/admin/v1/users/" + carolId + "/role", "{\"role\":\"admin\"}").status()).isEqualTo(200);
        alice = signedIn("alice");
        bob = signedIn("bob");
        carol = signedIn("carol@example.com");
        anonymous = new Browser(gateway.baseUrl());
    }

    private static Browser signedIn(String login) {
        return Browser.signedIn(gateway.baseUrl(), login, PASSWORD);
    }

    static Answer admin(String method, String path, String json) {
        return Browser.admin(gateway, method, path, json);
    }

    private static String userId(String name) {
        return signedInMe(name).path("user").path("id").asText();
    }

    private static JsonNode signedInMe(String name) {
        Browser b = new Browser(gateway.baseUrl());
        b.login(name, PASSWORD);
        return b.get("/auth/me").json();
    }

    private static String createSkill(Browser who, String name, String visibility, String... tags) {
        Answer a = who.post("/v1/skills", "{\"name\":\"" + name + "\",\"description\":\"About " + name + "\",\"visibility\":\""
                + visibility + "\",\"tags\":" + json(List.of(tags)) + ",\"body\":{\"system_prompt\":\"Be " + name
                + ".\",\"rules\":[{\"type\":\"replace\",\"find\":\"\\\\bpls\\\\b\",\"replace\":\"please\",\"regex\":true}],"
                + "\"hints\":{\"temperature\":0.3}}}");
        assertThat(a.status()).as(a.body()).isEqualTo(201);
        return a.json().path("id").asText();
    }

    private static String json(Object o) {
        try {
            return Browser.JSON.writeValueAsString(o);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> ids(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.path("id").asText()));
        return out;
    }

    // ---- the starter catalog ---------------------------------------------------------------------------

    @Test
    void theStarterCatalogIsListedOnAFreshStart() {
        JsonNode skills = anonymous.get("/v1/skills?limit=100").json();
        assertThat(skills.path("total").asLong()).isGreaterThanOrEqualTo(20);
        assertThat(skills.path("page").asInt()).isZero();
        assertThat(skills.path("limit").asInt()).isEqualTo(100);
        JsonNode reviewer = anonymous.get("/v1/skills/code-reviewer").json();
        assertThat(reviewer.path("official").asBoolean()).isTrue();
        assertThat(reviewer.path("creator_username").asText()).isEqualTo("switchboard");
        assertThat(reviewer.path("body").path("system_prompt").asText()).contains("senior");
        assertThat(reviewer.has("liked")).as("anonymous readers get no liked flag").isFalse();

        assertThat(anonymous.get("/v1/mcp-servers").json().path("total").asLong()).isGreaterThanOrEqualTo(10);
        JsonNode deepwiki = anonymous.get("/v1/mcp-servers/deepwiki").json();
        assertThat(deepwiki.path("url").asText()).isEqualTo("https://mcp.deepwiki.com/mcp");
        assertThat(deepwiki.path("transport").asText()).isEqualTo("streamable-http");
        assertThat(deepwiki.path("tools").toString()).contains("ask_question");

        JsonNode markets = anonymous.get("/v1/marketplaces").json();
        assertThat(ids(markets.path("marketplaces"))).contains("developer-essentials", "writing-desk");
        JsonNode dev = anonymous.get("/v1/marketplaces/developer-essentials").json();
        JsonNode first = dev.path("items").get(0);
        assertThat(first.path("kind").asText()).isEqualTo("skill");
        assertThat(first.path("item").path("name").asText()).isEqualTo("Code reviewer");

        JsonNode characters = anonymous.get("/v1/characters").json();
        assertThat(characters.path("total").asLong()).isGreaterThanOrEqualTo(5);
        assertThat(characters.has("page")).as("characters have no pagination").isFalse();
        assertThat(anonymous.get("/v1/tags").json().path("tags").get(0).path("count").asLong()).isPositive();
        assertThat(anonymous.get("/v1/skill-tags?search=cod").json().path("tags").get(0).path("tag").asText()).isEqualTo("code");

        JsonNode plugins = anonymous.get("/v1/plugins").json();
        assertThat(plugins.path("total").asLong()).isGreaterThanOrEqualTo(3);
        JsonNode plugin = plugins.path("plugins").get(0);
        assertThat(plugin.path("download_url").asText()).startsWith("/v1/plugins/download/");
        assertThat(plugin.path("sha256").asText()).hasSize(64);
        assertThat(anonymous.get("/v1/plugins/verified?section=coding-tools").json().path("total").asLong())
                .isGreaterThanOrEqualTo(3);
        assertThat(anonymous.get("/v1/plugins?section=nothing-here").json().path("total").asLong()).isZero();
    }

    // ---- the list contract -----------------------------------------------------------------------------

    @Test
    void theListContractAndItsEdges() {
        for (String bad : List.of("limit=0", "limit=101", "limit=abc", "limit=1.5", "page=-1", "page=x", "page=100001",
                "sort=best", "tags=" + ",".repeat(3) + "a".repeat(40))) {
            Answer a = anonymous.get("/v1/skills?" + bad);
            assertThat(a.status()).as(bad).isEqualTo(400);
            assertThat(a.errorParam()).as(bad).isEqualTo(bad.substring(0, bad.indexOf('=')));
            assertThat(a.json().path("error").path("code").asText()).isEqualTo("400");
        }
        for (String path : List.of("/v1/mcp-servers?limit=0", "/v1/marketplaces?page=-2", "/v1/characters?sort=x")) {
            assertThat(anonymous.get(path).status()).as(path).isEqualTo(400);
        }
        JsonNode p0 = anonymous.get("/v1/skills?limit=5&sort=name").json();
        JsonNode p1 = anonymous.get("/v1/skills?limit=5&page=1&sort=name").json();
        assertThat(p0.path("skills")).hasSize(5);
        assertThat(ids(p0.path("skills"))).doesNotContainAnyElementsOf(ids(p1.path("skills")));
        assertThat(p0.path("total")).isEqualTo(p1.path("total"));
        JsonNode beyond = anonymous.get("/v1/skills?limit=100&page=50").json();
        assertThat(beyond.path("skills")).isEmpty();
        assertThat(beyond.path("total").asLong()).isEqualTo(p0.path("total").asLong());

        assertThat(ids(anonymous.get("/v1/skills?search=SQL").json().path("skills"))).contains("sql-helper");
        assertThat(ids(anonymous.get("/v1/skills?search=commit%20message").json().path("skills"))).containsExactly("commit-message");
        assertThat(anonymous.get("/v1/skills?search=zzzqqq").json().path("total").asLong()).isZero();
        List<String> tagged = ids(anonymous.get("/v1/skills?tags=sql,regex&limit=100").json().path("skills"));
        assertThat(tagged).contains("sql-helper", "regex-helper").doesNotContain("code-reviewer");
        JsonNode byTagAndSearch = anonymous.get("/v1/skills?tags=code&search=security").json();
        assertThat(ids(byTagAndSearch.path("skills"))).containsExactly("security-reviewer");
        assertThat(ids(anonymous.get("/v1/characters?tags=mystery").json().path("characters"))).containsExactly("detective-rook");
        assertThat(ids(anonymous.get("/v1/mcp-servers?search=docs&tags=remote").json().path("mcp_servers")))
                .contains("context7", "microsoft-learn").doesNotContain("filesystem");
    }

    // ---- sessions ----------------------------------------------------------------------------------------

    @Test
    void signInSetsAnHttpOnlyCookieAndSignOutRevokesIt() {
        Browser b = new Browser(gateway.baseUrl());
        Answer wrong = b.login("erin", "not the password");
        Answer unknown = b.login("nobody-at-all", "not the password");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(wrong.json().path("error").path("message")).as("the refusal never says whether the account exists")
                .isEqualTo(unknown.json().path("error").path("message"));
        assertThat(wrong.header("set-cookie")).isEmpty();

        Answer ok = b.login("erin@EXAMPLE.com", PASSWORD);
        assertThat(ok.status()).isEqualTo(200);
        String setCookie = ok.header("set-cookie").orElseThrow();
        assertThat(setCookie).startsWith("sb_session=sbs_").contains("HttpOnly").contains("SameSite=Lax").contains("Path=/")
                .doesNotContain("Secure");
        assertThat(ok.json().path("user").path("name").asText()).isEqualTo("erin");
        assertThat(ok.json().path("user").path("role").asText()).isEqualTo("user");
        String firstSession = b.sessionCookie().orElseThrow();

        JsonNode me = b.get("/auth/me").json();
        assertThat(me.path("user").path("email").asText()).isEqualTo("erin@example.com");
        assertThat(me.path("csrf_token").asText()).isEqualTo(b.csrf().orElseThrow());

        assertThat(b.login("erin", PASSWORD).status()).isEqualTo(200);
        assertThat(b.sessionCookie().orElseThrow()).as("every sign-in makes a new session id").isNotEqualTo(firstSession);
        Browser old = new Browser(gateway.baseUrl());
        old.adoptSession(firstSession, java.util.Optional.empty());
        assertThat(old.get("/auth/me").status()).as("the old id ends at the new sign-in").isEqualTo(401);

        assertThat(b.withoutCsrf().post("/auth/logout").status()).isEqualTo(403);
        String session = b.sessionCookie().orElseThrow();
        Answer out = b.withCsrf().post("/auth/logout");
        assertThat(out.status()).isEqualTo(204);
        assertThat(out.header("set-cookie").orElseThrow()).contains("Max-Age=0");
        Browser replay = new Browser(gateway.baseUrl());
        replay.adoptSession(session, b.csrf());
        assertThat(replay.get("/auth/me").status()).as("the server forgot the session").isEqualTo(401);
        assertThat(replay.post("/v1/skills/code-reviewer/like").status()).isEqualTo(401);
        assertThat(new Browser(gateway.baseUrl()).post("/auth/logout").status()).as("signing out twice is fine").isEqualTo(204);
    }

    @Test
    void secureCookieBehindATlsProxy() {
        Browser b = new Browser(gateway.baseUrl());
        Answer a = b.send("POST", "/auth/login", java.util.Optional.of("{\"login\":\"erin\",\"password\":\"" + PASSWORD + "\"}"),
                Map.of("x-forwarded-proto", "https"));
        assertThat(a.header("set-cookie").orElseThrow()).contains("; Secure");
    }

    @Test
    void anApiKeyNeverOpensASessionAndASessionNeverPaysForChat() {
        Map<String, String> key = Map.of("authorization", "Bearer " + gateway.apiKey());
        Browser b = new Browser(gateway.baseUrl());
        Answer login = b.send("POST", "/auth/login", java.util.Optional.empty(), key);
        assertThat(login.status()).isEqualTo(400);
        assertThat(login.header("set-cookie")).isEmpty();
        Answer me = b.get("/auth/me", key);
        assertThat(me.status()).isEqualTo(401);
        assertThat(me.json().path("error").path("message").asText()).contains("API keys do not open dashboard sessions");
        assertThat(b.send("POST", "/v1/skills", java.util.Optional.of("{}"), key).status()).isEqualTo(401);

        String hi = "{\"model\":\"sim-chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        Answer chat = alice.post("/v1/chat/completions", hi);
        assertThat(chat.status()).as("a session cookie, even with its CSRF token, is not a credential for chat").isEqualTo(401);
        assertThat(chat.json().path("error").path("message").asText()).contains("session cookies are not accepted");
        Answer withKey = alice.send("POST", "/v1/chat/completions", java.util.Optional.of(hi), key);
        assertThat(withKey.status()).as("the same request with a key works").isEqualTo(200);

        Answer models = alice.get("/v1/models");
        assertThat(models.status()).as("the dashboard reads the model list under its session and token").isEqualTo(200);
        Answer cookieOnly;
        try {
            cookieOnly = alice.withoutCsrf().get("/v1/models");
        } finally {
            alice.withCsrf();
        }
        assertThat(cookieOnly.status()).as("the cookie alone is not a credential anywhere on the API").isEqualTo(401);
    }

    @Test
    void failedSignInsAreThrottledPerAccountWhetherItExistsOrNot() {
        Browser b = new Browser(gateway.baseUrl());
        for (int i = 0; i < 10; i++) {
            assertThat(b.login("dave", "wrong-" + i).status()).isEqualTo(401);
        }
        Answer blocked = b.login("dave", PASSWORD);
        assertThat(blocked.status()).as("even the right password waits").isEqualTo(429);
        assertThat(blocked.errorType()).isEqualTo("rate_limit_error");
        assertThat(Long.parseLong(blocked.header("retry-after").orElseThrow())).isBetween(1L, 15 * 60L);
        assertThat(b.login("alice", PASSWORD).status()).as("other accounts are not affected").isEqualTo(200);
    }

    // ---- writes without a session or a CSRF token -----------------------------------------------------------

    @Test
    void everyWriteNeedsASessionAndItsCsrfToken() {
        String mine = createSkill(alice, "Guarded", "public", "guard");
        List<String[]> writes = List.of(
                new String[] {"POST", "/v1/skills", "{\"name\":\"x\",\"description\":\"d\",\"body\":{\"system_prompt\":\"p\"}}"},
                new String[] {"PUT", "/v1/skills/" + mine, "{\"name\":\"y\"}"},
                new String[] {"PATCH", "/v1/skills/" + mine, "{\"name\":\"y\"}"},
                new String[] {"DELETE", "/v1/skills/" + mine, ""},
                new String[] {"POST", "/v1/skills/" + mine + "/like", ""},
                new String[] {"DELETE", "/v1/skills/" + mine + "/like", ""},
                new String[] {"POST", "/v1/skills/" + mine + "/fork", ""},
                new String[] {"POST", "/v1/skills/" + mine + "/install", ""},
                new String[] {"DELETE", "/v1/skills/" + mine + "/install", ""},
                new String[] {"POST", "/v1/mcp-servers/github/like", ""},
                new String[] {"DELETE", "/v1/mcp-servers/github/like", ""},
                new String[] {"POST", "/v1/marketplaces/writing-desk/like", ""},
                new String[] {"POST", "/v1/characters/juniper-greenhouse/like", ""},
                new String[] {"POST", "/v1/characters/juniper-greenhouse/interact", ""},
                new String[] {"POST", "/auth/password", "{\"current_password\":\"a\",\"new_password\":\"b\"}"});
        List<String[]> reads = List.of(new String[] {"GET", "/v1/skills/user", ""}, new String[] {"GET", "/v1/skills/installed", ""},
                new String[] {"GET", "/auth/me", ""});
        for (String[] w : concat(writes, reads)) {
            Answer a = anonymous.send(w[0], w[1], w[2].isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(w[2]), Map.of());
            assertThat(a.status()).as("no session: " + w[0] + " " + w[1]).isEqualTo(401);
            assertThat(a.errorType()).as(w[1]).isEqualTo("auth_required");
        }
        Browser forged = new Browser(gateway.baseUrl());
        forged.adoptSession(alice.sessionCookie().orElseThrow(), java.util.Optional.of("not-the-token"));
        for (String[] w : writes) {
            Answer noToken = alice.withoutCsrf().send(w[0], w[1], w[2].isEmpty() ? java.util.Optional.empty()
                    : java.util.Optional.of(w[2]), Map.of());
            assertThat(noToken.status()).as("no CSRF token: " + w[0] + " " + w[1]).isEqualTo(403);
            assertThat(noToken.errorType()).isEqualTo("csrf_failed");
            Answer wrongToken = forged.send(w[0], w[1], w[2].isEmpty() ? java.util.Optional.empty()
                    : java.util.Optional.of(w[2]), Map.of());
            assertThat(wrongToken.status()).as("wrong CSRF token: " + w[0] + " " + w[1]).isEqualTo(403);
        }
        alice.withCsrf();
        for (String[] r : reads) {
            assertThat(alice.withoutCsrf().get(r[1]).status()).as("reads need no token: " + r[1]).isEqualTo(200);
        }
        alice.withCsrf();
        assertThat(anonymous.get("/v1/skills/" + mine).json().path("name").asText()).as("nothing changed").isEqualTo("Guarded");
        assertThat(anonymous.get("/v1/skills/" + mine).json().path("likes").asLong()).isZero();
    }

    private static List<String[]> concat(List<String[]> a, List<String[]> b) {
        List<String[]> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    // ---- skills: records, ownership, visibility -----------------------------------------------------------

    @Test
    void skillsAreCheckedOnWriteWithErrorsNamingTheField() {
        Map<String, String> bad = Map.ofEntries(
                Map.entry("{\"id\":\"mine\",\"name\":\"n\",\"description\":\"d\",\"body\":{\"system_prompt\":\"p\"}}", "id"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"likes\":5,\"body\":{\"system_prompt\":\"p\"}}", "likes"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"official\":true,\"body\":{\"system_prompt\":\"p\"}}", "official"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"creator_username\":\"root\",\"body\":{\"system_prompt\":\"p\"}}",
                        "creator_username"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"forked_from\":\"x\",\"body\":{\"system_prompt\":\"p\"}}", "forked_from"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"use_count\":1,\"body\":{\"system_prompt\":\"p\"}}", "use_count"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"forks\":1,\"body\":{\"system_prompt\":\"p\"}}", "forks"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"colour\":\"red\",\"body\":{\"system_prompt\":\"p\"}}", "colour"),
                Map.entry("{\"description\":\"d\",\"body\":{\"system_prompt\":\"p\"}}", "name"),
                Map.entry("{\"name\":\"" + "n".repeat(101) + "\",\"description\":\"d\",\"body\":{\"system_prompt\":\"p\"}}", "name"),
                Map.entry("{\"name\":\"n\",\"description\":\"" + "d".repeat(2001) + "\",\"body\":{\"system_prompt\":\"p\"}}", "description"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"tags\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\"],"
                        + "\"body\":{\"system_prompt\":\"p\"}}", "tags"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"tags\":[\"" + "t".repeat(33) + "\"],\"body\":{\"system_prompt\":\"p\"}}",
                        "tags[0]"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"visibility\":\"secret\",\"body\":{\"system_prompt\":\"p\"}}", "visibility"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\"}", "body"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{}}", "body"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"system_prompt\":\"" + "p".repeat(32_769) + "\"}}",
                        "body.system_prompt"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"rules\":[{\"type\":\"replace\",\"find\":\"(a\",\"regex\":true}]}}",
                        "body.rules[0].find"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"rules\":[{\"type\":\"replace\",\"find\":\"(a)\\\\1\",\"regex\":true}]}}",
                        "body.rules[0].find"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"rules\":[{\"type\":\"replace\",\"find\":\"a\",\"replace\":\"$2\","
                        + "\"regex\":true}]}}", "body.rules[0].replace"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"rules\":[{\"type\":\"shout\"}]}}", "body.rules[0].type"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"rules\":[{\"type\":\"append\",\"text\":\"x\",\"target\":\"system\"}]}}",
                        "body.rules[0].target"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"system_prompt\":\"p\",\"hints\":{\"temperature\":3}}}",
                        "body.hints.temperature"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"system_prompt\":\"p\",\"hints\":{\"reasoning_effort\":\"huge\"}}}",
                        "body.hints.reasoning_effort"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"system_prompt\":\"p\",\"hints\":{\"model\":\"gpt\"}}}",
                        "body.hints.model"),
                Map.entry("{\"name\":\"n\",\"description\":\"d\",\"body\":{\"system_prompt\":\"p\",\"tools\":[]}}", "body.tools"));
        bad.forEach((body, field) -> {
            Answer a = alice.post("/v1/skills", body);
            assertThat(a.status()).as(field + ": " + a.body()).isEqualTo(400);
            assertThat(a.errorParam()).as(a.body()).isEqualTo(field);
        });
        String rules = "{\"type\":\"append\",\"text\":\"x\"}";
        Answer tooMany = alice.post("/v1/skills", "{\"name\":\"n\",\"description\":\"d\",\"body\":{\"rules\":["
                + String.join(",", java.util.Collections.nCopies(21, rules)) + "]}}");
        assertThat(tooMany.errorParam()).isEqualTo("body.rules");
        Answer huge = alice.post("/v1/skills", "{\"name\":\"n\",\"description\":\"d\",\"body\":{\"system_prompt\":\""
                + "p".repeat(300_000) + "\"}}");
        assertThat(huge.status()).isEqualTo(413);
        Answer notJson = alice.post("/v1/skills", "{not json");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(alice.get("/v1/skills/user?limit=100").json().path("skills").findValuesAsText("name")).doesNotContain("n");
    }

    @Test
    void ownershipAndVisibility() {
        String priv = createSkill(alice, "Alice private", "private", "vis");
        String unlisted = createSkill(alice, "Alice unlisted", "unlisted", "vis");
        String pub = createSkill(alice, "Alice public", "public", "vis");

        JsonNode created = anonymous.get("/v1/skills/" + pub).json();
        assertThat(created.path("creator_username").asText()).isEqualTo("alice");
        assertThat(created.path("official").asBoolean()).isFalse();
        assertThat(created.path("id").asText()).startsWith("skl_");
        assertThat(created.path("body").path("rules").get(0).path("find").asText()).isEqualTo("\\bpls\\b");

        List<String> listed = ids(anonymous.get("/v1/skills?tags=vis").json().path("skills"));
        assertThat(listed).containsExactly(pub);
        assertThat(anonymous.get("/v1/skill-tags?search=vis").json().path("tags").get(0).path("count").asLong())
                .as("only public skills count in tags").isEqualTo(1);
        assertThat(anonymous.get("/v1/skills/" + unlisted).status()).as("unlisted: readable by id").isEqualTo(200);
        Answer hidden = bob.get("/v1/skills/" + priv);
        assertThat(hidden.status()).isEqualTo(404);
        assertThat(hidden.json().path("error").path("message").asText()).as("worded as for an id that does not exist")
                .isEqualTo("No skill with id '" + priv + "'.");
        assertThat(bob.get("/v1/skills/skl_doesnotexist").json().path("error").path("message").asText())
                .isEqualTo("No skill with id 'skl_doesnotexist'.");
        assertThat(alice.get("/v1/skills/" + priv).status()).isEqualTo(200);
        JsonNode own = alice.get("/v1/skills/user?limit=100&tags=vis").json();
        assertThat(ids(own.path("skills"))).containsExactlyInAnyOrder(priv, unlisted, pub);
        assertThat(own.path("total").asLong()).isEqualTo(3);
        assertThat(bob.get("/v1/skills/user?tags=vis").json().path("total").asLong()).isZero();

        assertThat(bob.put("/v1/skills/" + priv, "{\"name\":\"mine now\"}").status()).isEqualTo(404);
        assertThat(bob.delete("/v1/skills/" + priv).status()).isEqualTo(404);
        Answer notYours = bob.put("/v1/skills/" + pub, "{\"name\":\"mine now\"}");
        assertThat(notYours.status()).isEqualTo(403);
        assertThat(notYours.json().path("error").path("message").asText()).contains("fork");
        assertThat(bob.delete("/v1/skills/" + unlisted).status()).isEqualTo(403);
        assertThat(alice.put("/v1/skills/code-reviewer", "{\"name\":\"mine\"}").status()).as("official skills").isEqualTo(403);
        assertThat(alice.delete("/v1/skills/code-reviewer").status()).isEqualTo(403);

        Answer edited = alice.patch("/v1/skills/" + pub, "{\"description\":\"Edited\",\"tags\":[\"Vis\",\"Edited Tag\"]}");
        assertThat(edited.status()).as(edited.body()).isEqualTo(200);
        assertThat(edited.json().path("name").asText()).as("absent fields stay").isEqualTo("Alice public");
        assertThat(edited.json().path("tags").toString()).isEqualTo("[\"vis\",\"edited tag\"]");
        assertThat(alice.put("/v1/skills/" + pub, "{\"likes\":99}").errorParam()).isEqualTo("likes");
        assertThat(alice.put("/v1/skills/" + pub, "{\"visibility\":\"private\"}").status()).isEqualTo(200);
        assertThat(anonymous.get("/v1/skills/" + pub).status()).as("now private").isEqualTo(404);

        Answer deleted = alice.delete("/v1/skills/" + unlisted);
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.json().path("deleted").asBoolean()).isTrue();
        assertThat(anonymous.get("/v1/skills/" + unlisted).status()).isEqualTo(404);
        assertThat(alice.delete("/v1/skills/" + unlisted).status()).isEqualTo(404);
        assertThat(anonymous.get("/v1/skills/..%2F..%2Fetc").status()).isEqualTo(404);
    }

    @Test
    void likesAreIdempotentPerUserAndForksCopyWithProvenance() {
        String src = createSkill(alice, "Forkable", "public", "forks");
        Answer like = bob.post("/v1/skills/" + src + "/like");
        assertThat(like.json().toString()).isEqualTo("{\"id\":\"" + src + "\",\"liked\":true,\"likes\":1}");
        assertThat(bob.post("/v1/skills/" + src + "/like").json().path("likes").asLong()).as("no second count").isEqualTo(1);
        assertThat(carol.post("/v1/skills/" + src + "/like").json().path("likes").asLong()).isEqualTo(2);
        assertThat(bob.get("/v1/skills/" + src).json().path("liked").asBoolean()).isTrue();
        assertThat(alice.get("/v1/skills/" + src).json().path("liked").asBoolean()).isFalse();
        assertThat(bob.get("/v1/skills?tags=forks").json().path("skills").get(0).path("liked").asBoolean()).isTrue();
        Answer unlike = bob.delete("/v1/skills/" + src + "/like");
        assertThat(unlike.json().path("liked").asBoolean()).isFalse();
        assertThat(unlike.json().path("likes").asLong()).isEqualTo(1);
        assertThat(bob.delete("/v1/skills/" + src + "/like").json().path("likes").asLong()).isEqualTo(1);

        Answer fork = bob.post("/v1/skills/" + src + "/fork");
        assertThat(fork.status()).isEqualTo(201);
        JsonNode copy = fork.json();
        assertThat(copy.path("forked_from").asText()).isEqualTo(src);
        assertThat(copy.path("visibility").asText()).isEqualTo("private");
        assertThat(copy.path("creator_username").asText()).isEqualTo("bob");
        assertThat(copy.path("likes").asLong()).isZero();
        assertThat(copy.path("body")).isEqualTo(anonymous.get("/v1/skills/" + src).json().path("body"));
        assertThat(anonymous.get("/v1/skills/" + src).json().path("forks").asLong()).isEqualTo(1);
        assertThat(bob.put("/v1/skills/" + copy.path("id").asText(), "{\"name\":\"Bob's version\"}").status()).isEqualTo(200);
        Answer named = carol.post("/v1/skills/" + src + "/fork", "{\"name\":\"Carol's\",\"visibility\":\"public\"}");
        assertThat(named.json().path("name").asText()).isEqualTo("Carol's");
        assertThat(carol.post("/v1/skills/" + src + "/fork", "{\"likes\":3}").errorParam()).isEqualTo("likes");
        assertThat(anonymous.get("/v1/skills/" + src).json().path("forks").asLong()).isEqualTo(2);
        assertThat(carol.post("/v1/skills/code-reviewer/fork").status()).as("official skills fork too").isEqualTo(201);

        String priv = createSkill(alice, "Not for you", "private");
        assertThat(bob.post("/v1/skills/" + priv + "/like").status()).isEqualTo(404);
        assertThat(bob.post("/v1/skills/" + priv + "/fork").status()).isEqualTo(404);
        assertThat(bob.post("/v1/skills/skl_nope/like").status()).isEqualTo(404);

        assertThat(bob.post("/v1/mcp-servers/context7/like").json().path("likes").asLong()).isEqualTo(1);
        assertThat(bob.get("/v1/mcp-servers/context7").json().path("liked").asBoolean()).isTrue();
        assertThat(bob.post("/v1/marketplaces/writing-desk/like").json().path("likes").asLong()).isEqualTo(1);
        assertThat(bob.post("/v1/characters/mika-language-buddy/like").json().path("likes").asLong()).isEqualTo(1);
        assertThat(bob.post("/v1/mcp-servers/nope/like").status()).isEqualTo(404);
    }

    @Test
    void charactersCountInteractionsAndExportCards() {
        long before = anonymous.get("/v1/characters/captain-ines-varga").json().path("interactions").asLong();
        Answer i1 = alice.post("/v1/characters/captain-ines-varga/interact");
        assertThat(i1.json().path("interactions").asLong()).isEqualTo(before + 1);
        assertThat(bob.post("/v1/characters/captain-ines-varga/interact").json().path("interactions").asLong()).isEqualTo(before + 2);
        assertThat(alice.post("/v1/characters/nobody/interact").status()).isEqualTo(404);
        JsonNode card = anonymous.get("/v1/characters/captain-ines-varga/card").json();
        assertThat(card.path("spec").asText()).isEqualTo("chara_card_v2");
        assertThat(card.path("data").path("first_mes").asText()).contains("red torch");
        JsonNode full = anonymous.get("/v1/characters/detective-rook").json();
        for (String field : List.of("personality", "scenario", "first_mes", "mes_example", "system_prompt",
                "post_history_instructions", "alternate_greetings", "creator", "character_version", "likes", "interactions")) {
            assertThat(full.has(field)).as(field).isTrue();
        }
    }

    @Test
    void pluginDownloadsAreExactWithEtagsAndNoWayToAnyOtherFile() throws Exception {
        JsonNode plugin = anonymous.get("/v1/plugins/claude-code-settings").json();
        Answer file = anonymous.get(plugin.path("download_url").asText());
        assertThat(file.status()).isEqualTo(200);
        assertThat(file.header("content-type").orElseThrow()).startsWith("application/json");
        assertThat(file.header("content-disposition").orElseThrow())
                .isEqualTo("attachment; filename=\"switchboard-claude-code-settings.json\"");
        String etag = file.header("etag").orElseThrow();
        assertThat(etag).isEqualTo("\"" + plugin.path("sha256").asText() + "\"");
        byte[] body = file.raw().body();
        assertThat((long) body.length).isEqualTo(plugin.path("size").asLong());
        assertThat(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(body)))
                .isEqualTo(plugin.path("sha256").asText());
        assertThat(Browser.JSON.readTree(body).path("env").path("ANTHROPIC_BASE_URL").asText()).isEqualTo("http://127.0.0.1:8080");
        Answer again = anonymous.get(plugin.path("download_url").asText(), Map.of("if-none-match", etag));
        assertThat(again.status()).isEqualTo(304);
        assertThat(again.raw().body()).isEmpty();

        for (String path : List.of("/v1/plugins/download/..%2F..%2Fpom.xml", "/v1/plugins/download/..%2fV1__accounts.sql",
                "/v1/plugins/download/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/v1/plugins/download/....%2F%2Fetc%2Fpasswd",
                "/v1/plugins/download/switchboard-claude-code-settings.json%00.txt",
                "/v1/plugins/download/SWITCHBOARD-CLAUDE-CODE-SETTINGS.JSON", "/v1/plugins/download/%5C..%5Cpom.xml",
                "/v1/plugins/download/.", "/v1/plugins/download/db", "/v1/plugins/download/catalog.yaml",
                "/v1/plugins/download/artifacts%2Fswitchboard-aider.conf.yml")) {
            assertThat(anonymous.get(path).status()).as(path).isEqualTo(404);
        }
        for (String raw : List.of("/v1/plugins/download/../../../../etc/passwd", "/v1/plugins/download/..\\..\\pom.xml",
                "/v1/plugins/download//etc/passwd", "/v1/plugins/download/./switchboard-aider.conf.yml/..")) {
            String status = Browser.rawGetStatus(gateway.app().port(), raw);
            assertThat(status).as(raw).doesNotContain(" 200 ").doesNotContain(" 500 ");
        }
    }

    @Test
    void installedSkillsKeepTheirOrderAndModels() {
        String mine = createSkill(bob, "Bob's installable", "private");
        Answer first = bob.post("/v1/skills/concise/install");
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().path("models")).isEmpty();
        Answer second = bob.post("/v1/skills/" + mine + "/install", "{\"models\":[\"sim-alias\"]}");
        assertThat(second.json().path("models").toString()).as("aliases are stored canonical").isEqualTo("[\"sim-chat\"]");
        assertThat(bob.post("/v1/skills/concise/install", "{\"models\":[\"no-such-model\"]}").errorParam()).isEqualTo("models[0]");
        assertThat(bob.post("/v1/skills/concise/install", "{\"models\":\"sim-chat\"}").errorParam()).isEqualTo("models");
        String alicePrivate = createSkill(alice, "Alice only", "private");
        assertThat(bob.post("/v1/skills/" + alicePrivate + "/install").status()).isEqualTo(404);

        JsonNode installed = bob.get("/v1/skills/installed").json().path("installed");
        assertThat(installed.findValuesAsText("skill_id")).containsExactly("concise", mine);
        assertThat(installed.get(0).path("skill").path("name").asText()).isEqualTo("Concise answers");
        assertThat(gateway.app().skills().installedFor(userId("bob"), "sim-chat")).extracting(s -> s.id())
                .containsExactly("concise", mine);
        assertThat(gateway.app().skills().installedFor(userId("bob"), "other-model")).extracting(s -> s.id())
                .containsExactly("concise");

        Answer removed = bob.delete("/v1/skills/concise/install");
        assertThat(removed.json().path("uninstalled").asBoolean()).isTrue();
        assertThat(bob.delete("/v1/skills/concise/install").json().path("uninstalled").asBoolean()).isFalse();
        assertThat(bob.get("/v1/skills/installed").json().path("installed").findValuesAsText("skill_id")).containsExactly(mine);
        assertThat(alice.get("/v1/skills/installed").json().path("installed")).isEmpty();
    }

    @Test
    void theSkillLookupForTheChatPipelineFollowsVisibilityAndCountsUsesExactly() {
        String priv = createSkill(alice, "Lookup private", "private");
        String unlisted = createSkill(alice, "Lookup unlisted", "unlisted");
        var lookup = gateway.app().skills();
        String aliceId = userId("alice");
        String bobId = userId("bob");
        assertThat(lookup.usable(priv, aliceId)).isPresent();
        assertThat(lookup.usable(priv, bobId)).isEmpty();
        assertThat(lookup.usable(unlisted, bobId)).isPresent();
        assertThat(lookup.usable("no-such", bobId)).isEmpty();
        assertThat(lookup.usable("../x", bobId)).isEmpty();
        lookup.recordUse(List.of(unlisted, unlisted, "code-reviewer"));
        assertThat(anonymous.get("/v1/skills/" + unlisted).json().path("use_count").asLong()).isEqualTo(2);
    }

    // ---- marketplaces resolve at read time -------------------------------------------------------------------

    @Test
    void marketplacesDropReferencesToDeletedOrPrivateEntries() {
        String a = createSkill(alice, "Market A", "public");
        String b = createSkill(alice, "Market B", "public");
        Answer put = admin("PUT", "/admin/v1/extend/marketplaces/test-market", "{\"name\":\"Test market\",\"description\":\"d\","
                + "\"items\":[{\"kind\":\"skill\",\"id\":\"" + a + "\"},{\"kind\":\"mcp_server\",\"id\":\"time\"},"
                + "{\"kind\":\"skill\",\"id\":\"" + b + "\"}],\"tags\":[\"test\"]}");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        assertThat(ids(anonymous.get("/v1/marketplaces/test-market").json().path("items"))).containsExactly(a, "time", b);

        alice.put("/v1/skills/" + a, "{\"visibility\":\"private\"}");
        alice.delete("/v1/skills/" + b);
        Answer resolved = anonymous.get("/v1/marketplaces/test-market");
        assertThat(resolved.status()).isEqualTo(200);
        assertThat(ids(resolved.json().path("items"))).containsExactly("time");
        assertThat(ids(anonymous.get("/v1/marketplaces?tags=test").json().path("marketplaces").get(0).path("items")))
                .containsExactly("time");
        Answer badRef = admin("PUT", "/admin/v1/extend/marketplaces/broken", "{\"name\":\"B\",\"description\":\"d\","
                + "\"items\":[{\"kind\":\"skill\",\"id\":\"no-such-skill\"}]}");
        assertThat(badRef.status()).isEqualTo(400);
        assertThat(badRef.errorParam()).isEqualTo("items[0]");
    }

    // ---- operator curation --------------------------------------------------------------------------------

    @Test
    void theOperatorCuratesEntriesArtifactsAndSeeds() {
        Answer server = admin("PUT", "/admin/v1/extend/mcp-servers/example-docs", "{\"name\":\"Example docs\",\"description\":"
                + "\"Docs\",\"url\":\"https://mcp.example.com/mcp\",\"transport\":\"streamable-http\",\"tools\":[\"search\"],"
                + "\"tags\":[\"docs\"],\"verified\":true}");
        assertThat(server.status()).as(server.body()).isEqualTo(200);
        assertThat(anonymous.get("/v1/mcp-servers/example-docs").json().path("verified").asBoolean()).isTrue();
        assertThat(admin("PUT", "/admin/v1/extend/mcp-servers/bad", "{\"name\":\"B\",\"description\":\"d\",\"transport\":\"sse\"}")
                .errorParam()).isEqualTo("url");
        assertThat(admin("PUT", "/admin/v1/extend/mcp-servers/bad", "{\"name\":\"B\",\"description\":\"d\",\"transport\":\"sse\","
                + "\"url\":\"https://x.example/sse\",\"likes\":5}").errorParam()).isEqualTo("likes");
        assertThat(admin("PUT", "/admin/v1/extend/widgets/x", "{}").status()).isEqualTo(404);
        assertThat(admin("PUT", "/admin/v1/extend/skills/Bad%20Id", "{}").errorParam()).isEqualTo("id");

        Answer plugin = admin("PUT", "/admin/v1/extend/plugins/test-plugin", "{\"name\":\"Test plugin\",\"description\":\"d\","
                + "\"section\":\"testing\",\"version\":\"0.1\"}");
        assertThat(plugin.status()).as(plugin.body()).isEqualTo(200);
        assertThat(anonymous.get("/v1/plugins/test-plugin").status()).as("not listed without a file").isEqualTo(404);
        Answer upload = new Browser(gateway.baseUrl()).send("PUT", "/admin/v1/extend/plugins/test-plugin/artifact?file_name=test-plugin.txt",
                java.util.Optional.of("hello plugin"), Map.of("authorization", "Bearer " + gateway.adminKey(),
                        "content-type", "text/plain; charset=utf-8"));
        assertThat(upload.status()).as(upload.body()).isEqualTo(200);
        assertThat(upload.json().path("size").asLong()).isEqualTo(12);
        Answer dl = anonymous.get("/v1/plugins/download/test-plugin.txt");
        assertThat(dl.body()).isEqualTo("hello plugin");
        assertThat(dl.header("content-type").orElseThrow()).startsWith("text/plain");
        Answer traversal = new Browser(gateway.baseUrl()).send("PUT", "/admin/v1/extend/plugins/test-plugin/artifact?file_name=..%2Fx",
                java.util.Optional.of("x"), Map.of("authorization", "Bearer " + gateway.adminKey(), "content-type", "text/plain"));
        assertThat(traversal.errorParam()).isEqualTo("file_name");
        Answer taken = new Browser(gateway.baseUrl()).send("PUT", "/admin/v1/extend/plugins/test-plugin/artifact?file_name="
                + "switchboard-aider.conf.yml", java.util.Optional.of("x"), Map.of("authorization", "Bearer " + gateway.adminKey(),
                "content-type", "text/plain"));
        assertThat(taken.status()).isEqualTo(409);

        String bobs = createSkill(bob, "Spammy", "public");
        assertThat(admin("PUT", "/admin/v1/extend/skills/" + bobs, "{\"name\":\"x\",\"description\":\"d\",\"body\":{\"system_prompt\":\"p\"}}")
                .status()).as("an operator entry never takes over a user's skill").isEqualTo(409);
        assertThat(admin("GET", "/admin/v1/extend/skills?search=spammy", "").json().path("skills").get(0).path("id").asText())
                .isEqualTo(bobs);
        assertThat(admin("DELETE", "/admin/v1/extend/skills/" + bobs, "").json().path("deleted").asBoolean()).isTrue();
        assertThat(anonymous.get("/v1/skills/" + bobs).status()).isEqualTo(404);

        Answer export = admin("GET", "/admin/v1/extend/export?format=json", "");
        assertThat(export.status()).isEqualTo(200);
        JsonNode seed = export.json();
        assertThat(seed.path("skills").findValuesAsText("id")).contains("code-reviewer").doesNotContain(bobs);
        assertThat(seed.path("plugins").findValuesAsText("file_name")).contains("test-plugin.txt");
        assertThat(seed.path("skills").get(0).has("likes")).isFalse();
        Answer reimport = admin("POST", "/admin/v1/extend/import?mode=keep", export.body());
        assertThat(reimport.status()).as(reimport.body()).isEqualTo(200);
        assertThat(reimport.json().path("written").path("skills").asInt()).as("keep writes nothing that exists").isZero();
        assertThat(admin("POST", "/admin/v1/extend/import", "{\"plugins\":[{\"id\":\"p\",\"name\":\"P\",\"description\":\"d\","
                + "\"section\":\"x\",\"version\":\"1\",\"artifact\":{\"file_name\":\"p.txt\",\"content_type\":\"text/plain\","
                + "\"file\":\"/etc/passwd\"}}]}").errorParam()).as("seeds over HTTP carry files inline").isEqualTo("plugins[0].artifact.file");
        Answer yaml = admin("POST", "/admin/v1/extend/import", "skills:\n  - id: yaml-skill\n    name: From YAML\n"
                + "    description: imported\n    tags: [yaml]\n    body: {system_prompt: Hello}\n");
        assertThat(yaml.json().path("written").path("skills").asInt()).isEqualTo(1);
        assertThat(anonymous.get("/v1/skills/yaml-skill").json().path("official").asBoolean()).isTrue();

        assertThat(admin("GET", "/admin/v1/extend/export", "").status()).isEqualTo(200);
        assertThat(anonymous.send("PUT", "/admin/v1/extend/mcp-servers/x", java.util.Optional.of("{}"), Map.of()).status())
                .isEqualTo(401);
        assertThat(bob.put("/admin/v1/extend/mcp-servers/x", "{}").status()).as("a user's session is not the operator").isEqualTo(403);
        Answer byAdminSession = carol.put("/admin/v1/extend/characters/test-card", "{\"name\":\"Testy\",\"description\":\"A test\","
                + "\"first_mes\":\"Hi\"}");
        assertThat(byAdminSession.status()).as(byAdminSession.body()).isEqualTo(200);
        assertThat(carol.withoutCsrf().delete("/admin/v1/extend/characters/test-card").status()).isEqualTo(403);
        assertThat(carol.withCsrf().delete("/admin/v1/extend/characters/test-card").status()).isEqualTo(200);
    }

    @Test
    void passwordsAreSetByTheOperatorAndChangedByTheirOwner() {
        Browser frank = new Browser(gateway.baseUrl());
        Answer created = admin("POST", "/admin/v1/users", "{\"name\":\"frank\"}");
        String id = created.json().path("id").asText();
        assertThat(frank.login("frank", PASSWORD).status()).as("no password yet").isEqualTo(401);
        assertThat(admin("PUT", "/admin/v1/users/" + id + "/password", "{\"password\":\"short\"}").errorParam()).isEqualTo("password");
        assertThat(admin("PUT", "/admin/v1/users/usr_nobody/password", "{\"password\":\"long enough pw\"}").status()).isEqualTo(404);
        assertThat(admin("PUT", "/admin/v1/users/" + id + "/password", "{\"password\":\"first password\"}").status()).isEqualTo(200);
        assertThat(frank.login("frank", "first password").status()).isEqualTo(200);

        Answer wrongCurrent = frank.post("/auth/password", "{\"current_password\":\"nope\",\"new_password\":\"second password\"}");
        assertThat(wrongCurrent.status()).isEqualTo(403);
        String before = frank.sessionCookie().orElseThrow();
        Browser otherTab = new Browser(gateway.baseUrl());
        otherTab.adoptSession(before, frank.csrf());
        Answer changed = frank.post("/auth/password", "{\"current_password\":\"first password\",\"new_password\":\"second password\"}");
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(frank.get("/auth/me").status()).as("the caller gets a new session").isEqualTo(200);
        assertThat(otherTab.get("/auth/me").status()).as("every other session ends").isEqualTo(401);

        Answer reset = admin("PUT", "/admin/v1/users/" + id + "/password", "{\"password\":\"third password\"}");
        assertThat(reset.json().path("sessions_ended").asInt()).isEqualTo(1);
        assertThat(frank.get("/auth/me").status()).isEqualTo(401);
        assertThat(new Browser(gateway.baseUrl()).login("frank", "third password").status()).isEqualTo(200);
    }

    @Test
    void signUpIsClosedUnlessTheOperatorOpensIt() {
        Answer a = anonymous.post("/auth/signup", "{\"name\":\"mallory\",\"password\":\"long enough pw\"}");
        assertThat(a.status()).isEqualTo(404);
    }
}
