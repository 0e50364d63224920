package dev.switchboard.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.extend.Artifact;
import dev.switchboard.engine.extend.CatalogItem;
import dev.switchboard.engine.extend.CharacterCard;
import dev.switchboard.engine.extend.ItemHeader;
import dev.switchboard.engine.extend.ItemJson;
import dev.switchboard.engine.extend.ItemKind;
import dev.switchboard.engine.extend.ItemRef;
import dev.switchboard.engine.extend.Marketplace;
import dev.switchboard.engine.extend.McpServer;
import dev.switchboard.engine.extend.Plugin;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillBody;
import dev.switchboard.engine.extend.Transport;
import dev.switchboard.engine.extend.Visibility;
import dev.switchboard.wire.Json;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Catalog entries to and from rows of {@code extend_items}: the columns lists filter and sort on, and the
 * kind's own fields as JSON in {@code data}.
 */
final class ItemRows {
    /** Every column but the counts' defaults, in insert order. */
    static final String COLUMNS = "kind, id, name, description, tags, search_text, sort_name, owner_id, creator, official,"
            + " visibility, section, verified, file_name, sha256, content_type, data, likes, use_count, forks, interactions,"
            + " forked_from, created_at, updated_at";
    static final String PLACEHOLDERS = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
    /** What a REPLACE changes: never counts, owner, fork origin, artifact or creation time. */
    static final String REPLACED = "name = excluded.name, description = excluded.description, tags = excluded.tags,"
            + " search_text = excluded.search_text, sort_name = excluded.sort_name, creator = excluded.creator,"
            + " official = excluded.official, visibility = excluded.visibility, section = excluded.section,"
            + " verified = excluded.verified, data = excluded.data, updated_at = excluded.updated_at";
    /** The select list, with the artifact's size. */
    static final String SELECT = "i.kind, i.id, i.name, i.description, i.tags, i.owner_id, i.creator, i.official, i.visibility,"
            + " i.section, i.verified, i.file_name, i.sha256, i.content_type, i.data, i.likes, i.use_count, i.forks,"
            + " i.interactions, i.forked_from, i.created_at, i.updated_at, a.size AS artifact_size"
            + " FROM extend_items i LEFT JOIN extend_artifacts a ON a.sha256 = i.sha256";

    private ItemRows() {
    }

    /** Binds every column of {@link #COLUMNS} for {@code item}. */
    static void bind(PreparedStatement s, CatalogItem item) throws SQLException {
        Optional<String> owner = Optional.empty();
        String creator = "";
        boolean official = true;
        Visibility visibility = Visibility.PUBLIC;
        Optional<String> section = Optional.empty();
        boolean verified = false;
        Optional<Artifact> artifact = Optional.empty();
        long likes = 0;
        long uses = 0;
        long forks = 0;
        long interactions = 0;
        Optional<String> forkedFrom = Optional.empty();
        ObjectNode data = Json.object();
        switch (item) {
            case Skill k -> {
                owner = k.ownerId();
                creator = k.creatorUsername();
                official = k.official();
                visibility = k.visibility();
                data = k.body().toJson();
                likes = k.likes();
                uses = k.useCount();
                forks = k.forks();
                forkedFrom = k.forkedFrom();
            }
            case McpServer m -> {
                official = m.official();
                verified = m.verified();
                ItemJson.writeMcpFields(data, m);
                likes = m.likes();
            }
            case Marketplace m -> {
                official = m.official();
                ItemJson.writeMarketplaceFields(data, m);
                likes = m.likes();
            }
            case CharacterCard c -> {
                creator = c.creator();
                ObjectNode d = data;
                ItemJson.writeCardTexts(d, c);
                d.put("character_version", c.characterVersion());
                c.avatarUrl().ifPresent(a -> d.put("avatar_url", a));
                d.set("extensions", c.extensions());
                likes = c.likes();
                interactions = c.interactions();
            }
            case Plugin p -> {
                section = Optional.of(p.section());
                verified = p.verified();
                artifact = p.artifact();
                ObjectNode d = data;
                d.put("version", p.version());
                p.homepage().ifPresent(h -> d.put("homepage", h));
            }
        }
        ArrayNode tags = Json.array();
        item.tags().forEach(tags::add);
        int i = 1;
        s.setString(i++, item.kind().wire());
        s.setString(i++, item.id());
        s.setString(i++, item.name());
        s.setString(i++, item.description());
        s.setString(i++, Json.write(tags));
        s.setString(i++, searchText(item));
        s.setString(i++, item.name().toLowerCase(Locale.ROOT));
        Sql.setOptionalText(s, i++, owner);
        s.setString(i++, creator);
        s.setInt(i++, official ? 1 : 0);
        s.setString(i++, visibility.wire());
        Sql.setOptionalText(s, i++, section);
        s.setInt(i++, verified ? 1 : 0);
        Sql.setOptionalText(s, i++, artifact.map(Artifact::fileName));
        Sql.setOptionalText(s, i++, artifact.map(Artifact::sha256));
        Sql.setOptionalText(s, i++, artifact.map(Artifact::contentType));
        s.setString(i++, Json.write(data));
        s.setLong(i++, likes);
        s.setLong(i++, uses);
        s.setLong(i++, forks);
        s.setLong(i++, interactions);
        Sql.setOptionalText(s, i++, forkedFrom);
        s.setLong(i++, item.createdAt().toEpochMilli());
        s.setLong(i, item.updatedAt().toEpochMilli());
    }

    /** What {@code ?search=} words are matched against: name, description and tags, lower-cased. */
    static String searchText(CatalogItem item) {
        return (item.name() + "\n" + item.description() + "\n" + String.join("\n", item.tags())).toLowerCase(Locale.ROOT);
    }

    /** The entry of the current row of a {@link #SELECT}. */
    static CatalogItem read(ResultSet rs) throws SQLException {
        ItemKind kind = ItemKind.fromWire(rs.getString("kind")).orElseThrow();
        ItemHeader head = new ItemHeader(rs.getString("id"), rs.getString("name"), rs.getString("description"),
                strings(Json.parse(rs.getString("tags"))), Instant.ofEpochMilli(rs.getLong("created_at")),
                Instant.ofEpochMilli(rs.getLong("updated_at")));
        JsonNode data = Json.parse(rs.getString("data"));
        long likes = rs.getLong("likes");
        boolean official = rs.getInt("official") != 0;
        boolean verified = rs.getInt("verified") != 0;
        return switch (kind) {
            case SKILL -> new Skill(head, Optional.ofNullable(rs.getString("owner_id")), rs.getString("creator"), official,
                    Visibility.parse(rs.getString("visibility"), "visibility"), SkillBody.stored(data), likes,
                    rs.getLong("use_count"), rs.getLong("forks"), Optional.ofNullable(rs.getString("forked_from")));
            case MCP_SERVER -> new McpServer(head, text(data, "url"),
                    Transport.parse(data.path("transport").asText(), "transport"), text(data, "command"),
                    strings(data.path("tools")), text(data, "homepage"), official, verified, likes);
            case MARKETPLACE -> {
                List<ItemRef> items = new ArrayList<>();
                for (JsonNode r : data.path("items")) {
                    ItemKind.fromWire(r.path("kind").asText()).ifPresent(k -> items.add(new ItemRef(k, r.path("id").asText())));
                }
                yield new Marketplace(head, text(data, "homepage"), items, official, likes);
            }
            case CHARACTER -> new CharacterCard(head, data.path("personality").asText(""),
                    data.path("scenario").asText(""), data.path("first_mes").asText(""), data.path("mes_example").asText(""),
                    data.path("system_prompt").asText(""), data.path("post_history_instructions").asText(""),
                    strings(data.path("alternate_greetings")), data.path("creator_notes").asText(""),
                    rs.getString("creator"), data.path("character_version").asText(""), text(data, "avatar_url"),
                    data.path("extensions").isObject() ? (ObjectNode) data.path("extensions") : Json.object(), likes,
                    rs.getLong("interactions"));
            case PLUGIN -> {
                Optional<Artifact> artifact = Optional.empty();
                String file = rs.getString("file_name");
                long size = rs.getLong("artifact_size");
                if (file != null && !rs.wasNull()) {
                    artifact = Optional.of(new Artifact(file, rs.getString("content_type"), size, rs.getString("sha256")));
                }
                yield new Plugin(head, rs.getString("section"), data.path("version").asText(""), verified,
                        text(data, "homepage"), artifact);
            }
        };
    }

    private static Optional<String> text(JsonNode data, String field) {
        JsonNode n = data.get(field);
        return n == null || n.isNull() ? Optional.empty() : Optional.of(n.asText());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
