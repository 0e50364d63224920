package dev.switchboard.server.extend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.extend.CatalogItem;
import dev.switchboard.engine.extend.CatalogStore;
import dev.switchboard.engine.extend.Curation;
import dev.switchboard.engine.extend.ItemJson;
import dev.switchboard.engine.extend.ItemKind;
import dev.switchboard.engine.extend.ListQuery;
import dev.switchboard.engine.extend.Seed;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.time.Clock;
import java.util.Locale;

/**
 * The operator's catalog routes under {@code /admin/v1/extend} (admin key, or an admin's session):
 * <ul>
 *   <li>{@code GET /{kind}} every entry (any owner, any visibility) with the list contract;
 *       {@code GET /{kind}/{id}} one; {@code PUT /{kind}/{id}} creates or replaces an operator entry (counts kept);
 *       {@code DELETE /{kind}/{id}} deletes any entry, users' skills too. {@code kind} is skills, mcp-servers,
 *       marketplaces, characters or plugins.
 *   <li>{@code PUT /plugins/{id}/artifact?file_name=NAME} stores the request body as the plugin's file, served with the
 *       request's {@code Content-Type}.
 *   <li>{@code POST /import?mode=replace|keep} a seed (YAML or JSON, artifacts inline); {@code GET /export?format=yaml|json}.
 * </ul>
 */
public final class ExtendAdminApi {
    private final Curation curation;
    private final Clock clock;

    public ExtendAdminApi(Curation curation, Clock clock) {
        this.curation = curation;
        this.clock = clock;
    }

    public void list(Exchange ex) {
        ItemKind kind = kind(ex);
        ListQuery q = ListQuery.parse(ex::query);
        ex.respondJson(200, ExtendJson.page(kind.path().replace('-', '_'), curation.list(kind, q), ItemJson::write));
    }

    public void get(Exchange ex) {
        ex.respondJson(200, ItemJson.write(curation.get(kind(ex), ex.pathParam("id"))));
    }

    public void put(Exchange ex) {
        CatalogItem item = curation.put(kind(ex), ex.pathParam("id"), Bodies.json(ex, 1024 * 1024));
        ex.respondJson(200, ItemJson.write(item));
    }

    public void delete(Exchange ex) {
        ItemKind kind = kind(ex);
        String id = ex.pathParam("id");
        ObjectNode o = Json.object();
        o.put("kind", kind.wire());
        o.put("id", id);
        o.put("deleted", curation.delete(kind, id));
        ex.respondJson(200, o);
    }

    public void uploadArtifact(Exchange ex) {
        String fileName = ex.query("file_name").orElseThrow(() -> GatewayError.invalid("file_name",
                "file_name: required as a query parameter (?file_name=switchboard-config.json)").toException());
        String contentType = ex.header("content-type").orElseThrow(() -> GatewayError.invalid("content_type",
                "Send the file's media type as the Content-Type header.").toException());
        ex.respondJson(200, ItemJson.write(curation.attach(ex.pathParam("id"), fileName, contentType, ex.body())));
    }

    public void importSeed(Exchange ex) {
        CatalogStore.OnConflict mode = switch (ex.query("mode").orElse("replace").toLowerCase(Locale.ROOT)) {
            case "replace" -> CatalogStore.OnConflict.REPLACE;
            case "keep" -> CatalogStore.OnConflict.KEEP;
            default -> throw GatewayError.invalid("mode", "mode: expected replace or keep").toException();
        };
        Seed seed = Seed.read(SeedFiles.parse(ex.body(), "The request body"), Seed.Files.NONE, clock.instant());
        ex.respondJson(200, report(curation.importSeed(seed, mode)));
    }

    public void export(Exchange ex) {
        String format = ex.query("format").orElse("json");
        byte[] body = SeedFiles.write(curation.export(), format);
        ex.respond(200, format.toLowerCase(Locale.ROOT).startsWith("y") ? "application/yaml" : "application/json", body);
    }

    /** {@code {written: {skills: n, ...}, kept: {...}, artifacts: n}}. */
    public static ObjectNode report(Curation.ImportReport r) {
        ObjectNode o = Json.object();
        ObjectNode written = o.putObject("written");
        ObjectNode kept = o.putObject("kept");
        for (ItemKind k : ItemKind.values()) {
            written.put(k.path().replace('-', '_'), r.written().getOrDefault(k, 0));
            kept.put(k.path().replace('-', '_'), r.kept().getOrDefault(k, 0));
        }
        o.put("artifacts", r.artifacts());
        return o;
    }

    private static ItemKind kind(Exchange ex) {
        String k = ex.pathParam("kind");
        return ItemKind.fromPath(k).orElseThrow(() -> GatewayError.notFound("No catalog kind '" + k
                + "'; expected skills, mcp-servers, marketplaces, characters or plugins.").toException());
    }

}
