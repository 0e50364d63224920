package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The JSON of catalog entries, both ways. {@link #write} gives an entry's whole record as the public API shows
 * it (snake_case, optional fields omitted when absent); {@link #read} takes an entry as the operator writes it
 * (admin API, seed files), where the fields the gateway keeps itself (counts, times) are refused by name.
 */
public final class ItemJson {
    /** The creator shown on the operator's skills unless a seed names another. */
    public static final String OPERATOR = "switchboard";
    private static final Pattern SECTION = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");
    private static final int EXTENSIONS_CHARS = 16_384;

    private ItemJson() {
    }

    // ---- writing ---------------------------------------------------------------------------------------

    /** The entry as the public API shows it. */
    public static ObjectNode write(CatalogItem item) {
        return switch (item) {
            case Skill s -> skill(s);
            case McpServer m -> mcpServer(m);
            case Marketplace m -> marketplace(m);
            case CharacterCard c -> character(c);
            case Plugin p -> plugin(p);
        };
    }

    private static ObjectNode head(CatalogItem item) {
        ObjectNode o = Json.object();
        o.put("id", item.id());
        o.put("name", item.name());
        o.put("description", item.description());
        return o;
    }

    private static void tail(ObjectNode o, CatalogItem item) {
        ArrayNode tags = o.putArray("tags");
        item.tags().forEach(tags::add);
        o.put("created_at", item.createdAt().toString());
        o.put("updated_at", item.updatedAt().toString());
    }

    private static ObjectNode skill(Skill s) {
        ObjectNode o = head(s);
        o.put("creator_username", s.creatorUsername());
        o.put("official", s.official());
        o.put("visibility", s.visibility().wire());
        o.set("body", s.body().toJson());
        o.put("likes", s.likes());
        o.put("use_count", s.useCount());
        o.put("forks", s.forks());
        s.forkedFrom().ifPresent(f -> o.put("forked_from", f));
        tail(o, s);
        return o;
    }

    private static ObjectNode mcpServer(McpServer m) {
        ObjectNode o = head(m);
        writeMcpFields(o, m);
        o.put("official", m.official());
        o.put("verified", m.verified());
        o.put("likes", m.likes());
        tail(o, m);
        return o;
    }

    /** An MCP server's own fields (url to homepage): what the API shows and the store keeps alike. */
    public static void writeMcpFields(ObjectNode o, McpServer m) {
        m.url().ifPresent(u -> o.put("url", u));
        o.put("transport", m.transport().wire());
        m.command().ifPresent(c -> o.put("command", c));
        ArrayNode tools = o.putArray("tools");
        m.tools().forEach(tools::add);
        m.homepage().ifPresent(h -> o.put("homepage", h));
    }

    private static ObjectNode marketplace(Marketplace m) {
        ObjectNode o = head(m);
        writeMarketplaceFields(o, m);
        o.put("official", m.official());
        o.put("likes", m.likes());
        tail(o, m);
        return o;
    }

    /** A marketplace's own fields (homepage, item references): what the API shows and the store keeps alike. */
    public static void writeMarketplaceFields(ObjectNode o, Marketplace m) {
        m.homepage().ifPresent(h -> o.put("homepage", h));
        ArrayNode items = o.putArray("items");
        for (ItemRef r : m.items()) {
            items.addObject().put("kind", r.kind().wire()).put("id", r.id());
        }
    }

    private static ObjectNode character(CharacterCard c) {
        ObjectNode o = head(c);
        writeCardTexts(o, c);
        o.put("creator", c.creator());
        o.put("character_version", c.characterVersion());
        c.avatarUrl().ifPresent(a -> o.put("avatar_url", a));
        o.set("extensions", c.extensions().deepCopy());
        o.put("likes", c.likes());
        o.put("interactions", c.interactions());
        tail(o, c);
        return o;
    }

    /**
     * Writes the character's Card V2 texts under their Card V2 names ({@code personality} to
     * {@code creator_notes}, {@code alternate_greetings} among them): the fields the API shows and the
     * store keeps alike.
     */
    public static void writeCardTexts(ObjectNode o, CharacterCard c) {
        o.put("personality", c.personality());
        o.put("scenario", c.scenario());
        o.put("first_mes", c.firstMes());
        o.put("mes_example", c.mesExample());
        o.put("system_prompt", c.systemPrompt());
        o.put("post_history_instructions", c.postHistoryInstructions());
        ArrayNode greetings = o.putArray("alternate_greetings");
        c.alternateGreetings().forEach(greetings::add);
        o.put("creator_notes", c.creatorNotes());
    }

    private static ObjectNode plugin(Plugin p) {
        ObjectNode o = head(p);
        o.put("section", p.section());
        o.put("version", p.version());
        o.put("verified", p.verified());
        p.homepage().ifPresent(h -> o.put("homepage", h));
        p.artifact().ifPresent(a -> {
            o.put("file_name", a.fileName());
            o.put("content_type", a.contentType());
            o.put("size", a.size());
            o.put("sha256", a.sha256());
            o.put("download_url", a.downloadPath());
        });
        tail(o, p);
        return o;
    }

    /** The fields of {@link #write} that the gateway keeps itself: what a seed file leaves out. */
    public static final Set<String> GATEWAY_OWNED = Set.of("likes", "use_count", "forks", "forked_from", "interactions",
            "created_at", "updated_at", "download_url", "file_name", "size", "sha256", "content_type", "liked");

    /** The entry as an operator would write it in a seed file: {@link #write} without what the gateway keeps. */
    public static ObjectNode writeForSeed(CatalogItem item) {
        ObjectNode o = write(item);
        o.remove(GATEWAY_OWNED);
        if (item instanceof Skill) {
            o.remove("official");
        }
        if (item instanceof Marketplace) {
            o.remove("official");
        }
        return o;
    }

    // ---- reading ---------------------------------------------------------------------------------------

    /**
     * Reads an operator's entry of {@code kind}. Its id is {@code pathId} when given (an {@code id} in the body
     * must then be the same), otherwise the body's {@code id}. Times are {@code now}, counts zero: storing it
     * keeps the counts and creation time of an entry that already exists. A plugin's {@code artifact} is not
     * read here (see the seed reader and the upload route).
     */
    public static CatalogItem read(ItemKind kind, JsonInput in, Optional<String> pathId, Instant now) {
        String id = id(in, pathId);
        return switch (kind) {
            case SKILL -> {
                in.allowOnly(Set.of("id", "name", "description", "tags", "visibility", "body", "creator_username"),
                        Set.of("likes", "use_count", "forks", "forked_from", "official", "created_at", "updated_at"));
                SkillDraft d = SkillDraft.read(in, true);
                String dName = d.name().orElseThrow();
                String creator = in.text("creator_username", Limits.NAME, true).filter(c -> !c.isEmpty()).orElse(OPERATOR);
                yield new Skill(new ItemHeader(id, dName, d.description().orElseThrow(), d.tags().orElse(List.of()), now, now),
                        Optional.empty(), creator, true, d.visibility().orElse(Visibility.PUBLIC), d.body().orElseThrow(), 0, 0, 0,
                        Optional.empty());
            }
            case MCP_SERVER -> {
                in.allowOnly(Set.of("id", "name", "description", "url", "transport", "command", "tools", "homepage", "tags",
                        "official", "verified"), Set.of("likes", "created_at", "updated_at"));
                Transport transport = Transport.parse(in.requiredText("transport", 32), in.field("transport"));
                Optional<String> url = in.text("url", Limits.URL, true).filter(u -> !u.isEmpty())
                        .map(u -> Urls.check(u, in.field("url")));
                Optional<String> command = in.text("command", Limits.RULE_TEXT, true).filter(c -> !c.isEmpty());
                if (transport != Transport.STDIO && url.isEmpty()) {
                    throw GatewayError.invalid(in.field("url"), in.field("url") + ": required for the " + transport.wire()
                            + " transport").toException();
                }
                if (transport == Transport.STDIO && command.isEmpty()) {
                    throw GatewayError.invalid(in.field("command"), in.field("command")
                            + ": required for the stdio transport (the command that starts the server)").toException();
                }
                List<String> tools = in.texts("tools", Limits.MCP_TOOLS, Limits.MCP_TOOL_NAME);
                yield new McpServer(head(in, id, now), url, transport, command, tools, homepage(in),
                        in.bool("official").orElse(false), in.bool("verified").orElse(false), 0);
            }
            case MARKETPLACE -> {
                in.allowOnly(Set.of("id", "name", "description", "homepage", "items", "tags"),
                        Set.of("likes", "official", "created_at", "updated_at"));
                List<ItemRef> items = new ArrayList<>();
                for (JsonInput item : in.objects("items", Limits.MARKETPLACE_ITEMS)) {
                    item.allowOnly(Set.of("kind", "id"), Set.of());
                    String kindName = item.requiredText("kind", 32);
                    ItemKind k = ItemKind.fromWire(kindName).filter(x -> x == ItemKind.SKILL || x == ItemKind.MCP_SERVER)
                            .orElseThrow(() -> GatewayError.invalid(item.field("kind"), item.field("kind")
                                    + ": expected skill or mcp_server, got '" + kindName + "'").toException());
                    items.add(new ItemRef(k, item.requiredText("id", 80)));
                }
                yield new Marketplace(head(in, id, now), homepage(in), items, true, 0);
            }
            case CHARACTER -> {
                in.allowOnly(Set.of("id", "name", "description", "personality", "scenario", "first_mes", "mes_example",
                        "system_prompt", "post_history_instructions", "alternate_greetings", "creator_notes", "tags",
                        "creator", "character_version", "avatar_url", "extensions"),
                        Set.of("likes", "interactions", "created_at", "updated_at"));
                ObjectNode extensions = in.object("extensions").map(e -> (ObjectNode) e.node().deepCopy())
                        .orElseGet(Json::object);
                in.checkLength(in.field("extensions"), Json.write(extensions), EXTENSIONS_CHARS);
                Optional<String> avatar = in.text("avatar_url", Limits.URL, true).filter(u -> !u.isEmpty())
                        .map(u -> Urls.check(u, in.field("avatar_url")));
                yield new CharacterCard(head(in, id, now), longText(in, "personality"), longText(in, "scenario"),
                        longText(in, "first_mes"), longText(in, "mes_example"), longText(in, "system_prompt"),
                        longText(in, "post_history_instructions"),
                        in.texts("alternate_greetings", Limits.ALTERNATE_GREETINGS, Limits.CHARACTER_FIELD),
                        longText(in, "creator_notes"), in.text("creator", Limits.NAME, true).orElse(OPERATOR),
                        in.text("character_version", Limits.SHORT_TEXT, true).orElse("1.0"), avatar, extensions, 0, 0);
            }
            case PLUGIN -> {
                in.allowOnly(Set.of("id", "name", "description", "section", "version", "verified", "homepage", "tags"),
                        Set.of("file_name", "size", "sha256", "content_type", "download_url", "created_at", "updated_at"));
                String section = in.requiredText("section", 32);
                if (!SECTION.matcher(section).matches()) {
                    throw GatewayError.invalid(in.field("section"), in.field("section")
                            + ": expected lower-case letters, digits and '-', at most 32, e.g. coding-tools").toException();
                }
                yield new Plugin(head(in, id, now), section, in.requiredText("version", 32),
                        in.bool("verified").orElse(false), homepage(in), Optional.empty());
            }
        };
    }

    private static String id(JsonInput in, Optional<String> pathId) {
        Optional<String> bodyId = in.text("id", 200, true);
        if (pathId.isPresent()) {
            if (bodyId.isPresent() && !bodyId.get().equals(pathId.get())) {
                throw GatewayError.invalid(in.field("id"), in.field("id") + ": '" + bodyId.get()
                        + "' differs from the id in the path, '" + pathId.get() + "'").toException();
            }
            return EntryIds.slug(pathId.get(), "id");
        }
        return EntryIds.slug(bodyId.orElseThrow(() -> GatewayError.invalid(in.field("id"), in.field("id") + ": required")
                .toException()), in.field("id"));
    }

    /** The common fields of an operator's entry: its name, description and tags as given, both times {@code now}. */
    private static ItemHeader head(JsonInput in, String id, Instant now) {
        return new ItemHeader(id, name(in), description(in), tags(in), now, now);
    }

    static String name(JsonInput in) {
        return in.requiredText("name", Limits.NAME);
    }

    static String description(JsonInput in) {
        return in.requiredText("description", Limits.DESCRIPTION);
    }

    static List<String> tags(JsonInput in) {
        return Tags.normalize(in.texts("tags", Limits.TAGS, 200), in.field("tags"));
    }

    private static Optional<String> homepage(JsonInput in) {
        return in.text("homepage", Limits.URL, true).filter(u -> !u.isEmpty()).map(u -> Urls.check(u, in.field("homepage")));
    }

    private static String longText(JsonInput in, String name) {
        return in.text(name, Limits.CHARACTER_FIELD, false).orElse("");
    }

    /** The CharacterCard Card V2 document of a character ({@code {spec: "chara_card_v2", spec_version: "2.0", data}}). */
    public static ObjectNode characterCard(CharacterCard c) {
        ObjectNode card = Json.object();
        card.put("spec", "chara_card_v2");
        card.put("spec_version", "2.0");
        ObjectNode d = card.putObject("data");
        d.put("name", c.name());
        d.put("description", c.description());
        d.put("personality", c.personality());
        d.put("scenario", c.scenario());
        d.put("first_mes", c.firstMes());
        d.put("mes_example", c.mesExample());
        d.put("creator_notes", c.creatorNotes());
        d.put("system_prompt", c.systemPrompt());
        d.put("post_history_instructions", c.postHistoryInstructions());
        ArrayNode greetings = d.putArray("alternate_greetings");
        c.alternateGreetings().forEach(greetings::add);
        ArrayNode tags = d.putArray("tags");
        c.tags().forEach(tags::add);
        d.put("creator", c.creator());
        d.put("character_version", c.characterVersion());
        d.set("extensions", c.extensions().deepCopy());
        return card;
    }
}
