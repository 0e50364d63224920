package dev.switchboard.server.extend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.extend.CatalogItem;
import dev.switchboard.engine.extend.CatalogService;
import dev.switchboard.engine.extend.CatalogStore.StoredArtifact;
import dev.switchboard.engine.extend.CharacterCard;
import dev.switchboard.engine.extend.ItemJson;
import dev.switchboard.engine.extend.ItemKind;
import dev.switchboard.engine.extend.ListQuery;
import dev.switchboard.engine.extend.McpServer;
import dev.switchboard.engine.extend.Page;
import dev.switchboard.engine.extend.ResolvedMarketplace;
import dev.switchboard.engine.extend.Viewer;
import dev.switchboard.server.auth.SessionAuth;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.server.http.Handler;
import dev.switchboard.wire.Json;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The catalog routes of spec 4 beside skills: MCP servers, marketplaces, characters, tags and plugins (public
 * reads; a session adds {@code liked}), likes of every kind and character interactions (session and CSRF token),
 * and plugin downloads.
 */
public final class CatalogApi {
    private final CatalogService catalog;
    private final SessionAuth auth;

    public CatalogApi(CatalogService catalog, SessionAuth auth) {
        this.catalog = catalog;
        this.auth = auth;
    }

    /** {@code GET /v1/mcp-servers}: {@code {mcp_servers, total, page, limit}}. */
    public void mcpServers(Exchange ex) {
        Page<McpServer> page = catalog.mcpServers(ListQuery.parse(ex::query));
        Optional<Set<String>> liked = liked(ex, ItemKind.MCP_SERVER, page.items());
        ex.respondJson(200, ExtendJson.page("mcp_servers", page, m -> ExtendJson.item(m, liked)));
    }

    public void mcpServer(Exchange ex) {
        McpServer m = catalog.mcpServer(ex.pathParam("id"));
        ex.respondJson(200, ExtendJson.item(m, liked(ex, ItemKind.MCP_SERVER, List.of(m))));
    }

    /** {@code GET /v1/marketplaces}: {@code {marketplaces, total, page, limit}}, items resolved. */
    public void marketplaces(Exchange ex) {
        Page<ResolvedMarketplace> page = catalog.marketplaces(ListQuery.parse(ex::query));
        Optional<Set<String>> liked = liked(ex, ItemKind.MARKETPLACE, page.items().stream().map(ResolvedMarketplace::marketplace)
                .toList());
        ex.respondJson(200, ExtendJson.page("marketplaces", page, m -> ExtendJson.marketplace(m, liked)));
    }

    public void marketplace(Exchange ex) {
        ResolvedMarketplace m = catalog.marketplace(ex.pathParam("id"));
        ex.respondJson(200, ExtendJson.marketplace(m, liked(ex, ItemKind.MARKETPLACE, List.of(m.marketplace()))));
    }

    /** {@code GET /v1/characters}: {@code {characters, total}}, filters {@code search} and {@code tags}, no pagination. */
    public void characters(Exchange ex) {
        Page<CharacterCard> page = catalog.characters(ListQuery.parse(ex::query));
        Optional<Set<String>> liked = liked(ex, ItemKind.CHARACTER, page.items());
        ex.respondJson(200, ExtendJson.all("characters", page, c -> ExtendJson.item(c, liked)));
    }

    public void character(Exchange ex) {
        CharacterCard c = catalog.character(ex.pathParam("id"));
        ex.respondJson(200, ExtendJson.item(c, liked(ex, ItemKind.CHARACTER, List.of(c))));
    }

    /** {@code GET /v1/characters/{id}/card}: the Character Card V2 document, for chat front ends that import cards. */
    public void characterCard(Exchange ex) {
        CharacterCard c = catalog.character(ex.pathParam("id"));
        ex.respondJson(200, ItemJson.characterCard(c));
    }

    /** {@code GET /v1/tags}: the characters' tag cloud {@code {tags: [{tag, count}]}}. */
    public void characterTags(Exchange ex) {
        ex.respondJson(200, ExtendJson.tags(catalog.characterTags(ex.query("search"))));
    }

    /** {@code POST /v1/characters/{id}/interact}: {@code {id, interactions}}. */
    public void interact(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        String id = ex.pathParam("id");
        long n = catalog.interact(v, id);
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("interactions", n);
        ex.respondJson(200, o);
    }

    /** {@code GET /v1/plugins}: {@code {plugins, total}}, filters {@code search} and {@code section}. */
    public void plugins(Exchange ex) {
        ex.respondJson(200, ExtendJson.all("plugins", catalog.plugins(ListQuery.parse(ex::query)),
                p -> ExtendJson.item(p, Optional.empty())));
    }

    /** {@code GET /v1/plugins/{id}}: one plugin. */
    public void plugin(Exchange ex) {
        ex.respondJson(200, ExtendJson.item(catalog.plugin(ex.pathParam("id")), Optional.empty()));
    }

    /** {@code GET /v1/plugins/verified}: the same, curated entries only. */
    public void verifiedPlugins(Exchange ex) {
        ex.respondJson(200, ExtendJson.all("plugins", catalog.verifiedPlugins(ListQuery.parse(ex::query)),
                p -> ExtendJson.item(p, Optional.empty())));
    }

    /**
     * {@code GET /v1/plugins/download/{file_name}}: the artifact with its media type, {@code Content-Disposition},
     * a strong {@code ETag} (its SHA-256; {@code If-None-Match} answers 304) and {@code Repr-Digest}. The name is
     * matched exactly against plugin file names, never used as a path.
     */
    public void download(Exchange ex) {
        StoredArtifact a = catalog.download(ex.pathParam("file_name"));
        String etag = "\"" + a.artifact().sha256() + "\"";
        ex.header("etag", etag);
        ex.header("cache-control", "public, max-age=300");
        ex.header("x-content-type-options", "nosniff");
        boolean fresh = ex.header("if-none-match").map(h -> h.contains(etag) || h.strip().equals("*")).orElse(false);
        if (fresh) {
            ex.respond(304, a.artifact().contentType(), new byte[0]);
            return;
        }
        ex.header("content-disposition", "attachment; filename=\"" + a.artifact().fileName() + "\"");
        ex.header("repr-digest", "sha-256=:" + Base64.getEncoder().encodeToString(HexFormat.of().parseHex(a.artifact().sha256()))
                + ":");
        ex.respond(200, a.artifact().contentType(), a.content());
    }

    /** {@code POST /v1/<kind>/{id}/like}: {@code {id, liked: true, likes}}; a second like changes nothing. */
    public Handler like(ItemKind kind) {
        return ex -> {
            Viewer v = SessionAuth.viewer(auth.require(ex));
            String id = ex.pathParam("id");
            likeAnswer(ex, id, true, catalog.like(kind, v, id));
        };
    }

    /** {@code DELETE /v1/<kind>/{id}/like}: {@code {id, liked: false, likes}}. */
    public Handler unlike(ItemKind kind) {
        return ex -> {
            Viewer v = SessionAuth.viewer(auth.require(ex));
            String id = ex.pathParam("id");
            likeAnswer(ex, id, false, catalog.unlike(kind, v, id));
        };
    }

    private static void likeAnswer(Exchange ex, String id, boolean liked, long likes) {
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("liked", liked);
        o.put("likes", likes);
        ex.respondJson(200, o);
    }

    private Optional<Set<String>> liked(Exchange ex, ItemKind kind, List<? extends CatalogItem> items) {
        return auth.optional(ex).map(SessionAuth::viewer)
                .map(v -> catalog.likedBy(v, kind, items.stream().map(CatalogItem::id).toList()));
    }
}
