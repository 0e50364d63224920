package dev.switchboard.server.extend;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.extend.CatalogService;
import dev.switchboard.engine.extend.Installation;
import dev.switchboard.engine.extend.ItemKind;
import dev.switchboard.engine.extend.ListQuery;
import dev.switchboard.engine.extend.Page;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillService;
import dev.switchboard.engine.extend.Viewer;
import dev.switchboard.engine.skills.SkillPreview;
import dev.switchboard.server.auth.SessionAuth;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The skill routes of spec 4, the installed-skill routes and the preview of a skill's effect: public reads need
 * nothing (a session adds {@code liked}); writes and previews need a dashboard session and its CSRF token.
 */
public final class SkillsApi {
    private final SkillService skills;
    private final CatalogService catalog;
    private final SessionAuth auth;

    public SkillsApi(SkillService skills, CatalogService catalog, SessionAuth auth) {
        this.skills = skills;
        this.catalog = catalog;
        this.auth = auth;
    }

    /** {@code GET /v1/skills}: public skills, list contract, {@code {skills, total, page, limit}}. */
    public void list(Exchange ex) {
        ListQuery q = ListQuery.parse(ex::query);
        ex.respondJson(200, page(ex, skills.list(q)));
    }

    /** {@code GET /v1/skills/user}: every skill the caller created, any visibility, same envelope. */
    public void mine(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        ListQuery q = ListQuery.parse(ex::query);
        Page<Skill> page = skills.listOwn(v, q);
        Optional<Set<String>> liked = Optional.of(catalog.likedBy(v, ItemKind.SKILL, page.items().stream().map(Skill::id).toList()));
        ex.respondJson(200, ExtendJson.page("skills", page, s -> ExtendJson.item(s, liked)));
    }

    /** {@code GET /v1/skills/{id}}. */
    public void get(Exchange ex) {
        Optional<Viewer> v = auth.optional(ex).map(SessionAuth::viewer);
        Skill s = skills.get(ex.pathParam("id"), v);
        ex.respondJson(200, ExtendJson.item(s, v.map(viewer -> catalog.likedBy(viewer, ItemKind.SKILL, List.of(s.id())))));
    }

    /** {@code GET /v1/skill-tags?search=}: {@code {tags: [{tag, count}]}}, most used first. */
    public void tags(Exchange ex) {
        ex.respondJson(200, ExtendJson.tags(skills.tags(ex.query("search"))));
    }

    /** {@code POST /v1/skills}: 201 with the new skill. */
    public void create(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        ex.respondJson(201, ExtendJson.item(skills.create(v, Bodies.json(ex)), Optional.of(Set.of())));
    }

    /** {@code PUT} or {@code PATCH /v1/skills/{id}}: changes the fields sent; the owner only. */
    public void update(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        Skill s = skills.update(v, ex.pathParam("id"), Bodies.json(ex));
        ex.respondJson(200, ExtendJson.item(s, Optional.of(catalog.likedBy(v, ItemKind.SKILL, List.of(s.id())))));
    }

    /** {@code DELETE /v1/skills/{id}}: {@code {id, deleted: true}}; the owner only. */
    public void delete(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        String id = ex.pathParam("id");
        skills.delete(v, id);
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("deleted", true);
        ex.respondJson(200, o);
    }

    /** {@code POST /v1/skills/{id}/fork}: 201 with the copy (the caller's, private, {@code forked_from}). */
    public void fork(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        ex.respondJson(201, ExtendJson.item(skills.fork(v, ex.pathParam("id"), Bodies.json(ex)), Optional.of(Set.of())));
    }

    /** {@code POST /v1/skills/{id}/install} {@code {models?}}: the installation. */
    public void install(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        Installation i = skills.install(v, ex.pathParam("id"), Bodies.json(ex));
        ex.respondJson(200, ExtendJson.installation(i));
    }

    /** {@code DELETE /v1/skills/{id}/install}: {@code {skill_id, uninstalled}} (false when it was not installed). */
    public void uninstall(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        String id = ex.pathParam("id");
        ObjectNode o = Json.object();
        o.put("skill_id", id);
        o.put("uninstalled", skills.uninstall(v, id));
        ex.respondJson(200, o);
    }

    /** {@code GET /v1/skills/installed}: {@code {installed: [{skill_id, models, installed_at, skill}]}} in install order. */
    public void installed(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        ObjectNode o = Json.object();
        ArrayNode list = o.putArray("installed");
        skills.installed(v).forEach(i -> list.add(ExtendJson.installation(i)));
        ex.respondJson(200, o);
    }

    /**
     * {@code POST /v1/skills/preview}: what a sample conversation becomes under a draft body or stored skills
     * ({@link SkillPreview}), for the dashboard's rules editor; {@code {skills, system, messages, hints}}. Writes
     * nothing, counts no use.
     */
    public void preview(Exchange ex) {
        Viewer v = SessionAuth.viewer(auth.require(ex));
        ex.respondJson(200, ExtendJson.preview(SkillPreview.run(skills, v.userId(), Bodies.json(ex))));
    }

    private ObjectNode page(Exchange ex, Page<Skill> page) {
        Optional<Set<String>> liked = auth.optional(ex).map(SessionAuth::viewer)
                .map(v -> catalog.likedBy(v, ItemKind.SKILL, page.items().stream().map(Skill::id).toList()));
        return ExtendJson.page("skills", page, s -> ExtendJson.item(s, liked));
    }
}
