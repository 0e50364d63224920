package dev.switchboard.server.extend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.extend.CatalogItem;
import dev.switchboard.engine.extend.CharacterCard;
import dev.switchboard.engine.extend.ItemKind;
import dev.switchboard.engine.extend.ItemRef;
import dev.switchboard.engine.extend.Marketplace;
import dev.switchboard.engine.extend.McpServer;
import dev.switchboard.engine.extend.Seed;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.Transport;
import dev.switchboard.wire.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The shipped starter catalog is complete, valid, self-consistent, and its artifacts are what they say they are. */
class StarterCatalogTest {
    private final Seed seed = StarterCatalog.seed(Instant.parse("2026-05-01T00:00:00Z"));

    private List<CatalogItem> of(ItemKind kind) {
        return seed.items().stream().filter(i -> i.kind() == kind).toList();
    }

    @Test
    void hasWhatTheIssuePromises() {
        assertThat(of(ItemKind.SKILL)).hasSizeGreaterThanOrEqualTo(20);
        assertThat(of(ItemKind.MCP_SERVER)).hasSizeGreaterThanOrEqualTo(10);
        assertThat(of(ItemKind.MARKETPLACE)).hasSize(2);
        assertThat(of(ItemKind.CHARACTER)).hasSizeGreaterThanOrEqualTo(5);
        assertThat(of(ItemKind.PLUGIN)).hasSizeGreaterThanOrEqualTo(3);
        assertThat(seed.artifacts().keySet()).containsExactlyInAnyOrderElementsOf(
                of(ItemKind.PLUGIN).stream().map(CatalogItem::id).toList());
    }

    @Test
    void everySkillIsOfficialPublicTaggedAndDoesSomething() {
        for (CatalogItem i : of(ItemKind.SKILL)) {
            Skill s = (Skill) i;
            assertThat(s.official()).as(s.id()).isTrue();
            assertThat(s.ownerId()).as(s.id()).isEmpty();
            assertThat(s.tags()).as(s.id()).isNotEmpty();
            assertThat(s.body().systemPrompt().isPresent() || !s.body().rules().isEmpty()).as(s.id()).isTrue();
        }
    }

    @Test
    void theRuleSkillsRewriteAsDescribed() {
        Skill shorthand = (Skill) of(ItemKind.SKILL).stream().filter(s -> s.id().equals("shorthand-expander")).findFirst().orElseThrow();
        String text = "pls review this w/ care, thx - it's w/o tests b/c IMO they are slow";
        for (var rule : shorthand.body().rules()) {
            text = rule.apply(text);
        }
        assertThat(text).isEqualTo("please review this with care, thanks - it's without tests because in my opinion they are slow");
    }

    @Test
    void mcpServersStateHowToReachThem() {
        for (CatalogItem i : of(ItemKind.MCP_SERVER)) {
            McpServer m = (McpServer) i;
            assertThat(m.tools()).as(m.id()).isNotEmpty();
            assertThat(m.homepage()).as(m.id()).isPresent();
            if (m.transport() == Transport.STDIO) {
                assertThat(m.command()).as(m.id()).isPresent();
            } else {
                assertThat(m.url().orElseThrow()).as(m.id()).startsWith("https://");
            }
        }
    }

    @Test
    void marketplacesReferToEntriesOfTheSeed() {
        Set<String> skills = of(ItemKind.SKILL).stream().map(CatalogItem::id).collect(Collectors.toSet());
        Set<String> servers = of(ItemKind.MCP_SERVER).stream().map(CatalogItem::id).collect(Collectors.toSet());
        for (CatalogItem i : of(ItemKind.MARKETPLACE)) {
            for (ItemRef r : ((Marketplace) i).items()) {
                assertThat(r.kind() == ItemKind.SKILL ? skills : servers).as(i.id() + " -> " + r.id()).contains(r.id());
            }
        }
    }

    @Test
    void charactersHaveACardWorthOfText() {
        for (CatalogItem i : of(ItemKind.CHARACTER)) {
            CharacterCard c = (CharacterCard) i;
            assertThat(List.of(c.description(), c.personality(), c.scenario(), c.firstMes(), c.mesExample()))
                    .as(c.id()).allSatisfy(t -> assertThat(t).isNotBlank());
        }
    }

    @Test
    void artifactsParseAsTheirTypeAndPointAtTheGateway() {
        for (Seed.Upload u : seed.artifacts().values()) {
            String text = new String(u.content(), StandardCharsets.UTF_8);
            assertThat(text).as(u.fileName()).contains("127.0.0.1:8080");
            if (u.contentType().startsWith("application/json")) {
                JsonNode json = Json.parse(u.content());
                assertThat(json.path("env").path("ANTHROPIC_BASE_URL").asText()).isEqualTo("http://127.0.0.1:8080");
            } else if (u.contentType().startsWith("application/yaml")) {
                assertThat(SeedFiles.parse(u.content(), u.fileName()).isObject()).as(u.fileName()).isTrue();
            } else {
                assertThat(text).as(u.fileName()).contains("wire_api = \"responses\"");
            }
        }
    }
}
