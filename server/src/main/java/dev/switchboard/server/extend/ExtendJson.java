package dev.switchboard.server.extend;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.extend.CatalogItem;
import dev.switchboard.engine.extend.Installation;
import dev.switchboard.engine.extend.ItemJson;
import dev.switchboard.engine.extend.Page;
import dev.switchboard.engine.extend.ResolvedMarketplace;
import dev.switchboard.engine.extend.TagCount;
import dev.switchboard.engine.skills.SkillPreview;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The JSON answers of the catalog: entries as {@link ItemJson#write} shows them, plus {@code liked} when the
 * request carries a session; list envelopes {@code {<kind>: [...], total, page, limit}}.
 */
final class ExtendJson {
    private ExtendJson() {
    }

    /** One entry; {@code liked} only when {@code likedIds} is known (a signed-in reader). */
    static ObjectNode item(CatalogItem item, java.util.Optional<Set<String>> likedIds) {
        ObjectNode o = ItemJson.write(item);
        likedIds.ifPresent(ids -> o.put("liked", ids.contains(item.id())));
        return o;
    }

    static ObjectNode marketplace(ResolvedMarketplace r, java.util.Optional<Set<String>> likedIds) {
        ObjectNode o = item(r.marketplace(), likedIds);
        ArrayNode items = o.putArray("items");
        for (CatalogItem item : r.items()) {
            ObjectNode ref = items.addObject();
            ref.put("kind", item.kind().wire());
            ref.put("id", item.id());
            ref.set("item", ItemJson.write(item));
        }
        return o;
    }

    /** {@code {key: [...], total, page, limit}}. */
    static <T> ObjectNode page(String key, Page<T> page, Function<T, ObjectNode> render) {
        ObjectNode o = all(key, page, render);
        o.put("page", page.page());
        o.put("limit", page.limit());
        return o;
    }

    /** {@code {key: [...], total}}: the lists without pagination. */
    static <T> ObjectNode all(String key, Page<T> page, Function<T, ObjectNode> render) {
        ObjectNode o = Json.object();
        ArrayNode items = o.putArray(key);
        page.items().forEach(i -> items.add(render.apply(i)));
        o.put("total", page.total());
        return o;
    }

    static ObjectNode tags(List<TagCount> tags) {
        ObjectNode o = Json.object();
        ArrayNode list = o.putArray("tags");
        tags.forEach(t -> list.addObject().put("tag", t.tag()).put("count", t.count()));
        return o;
    }

    /** {@code {skills: [ids], system: [texts], messages: [{role, content}], hints: {...}}}. */
    static ObjectNode preview(SkillPreview.Result r) {
        ObjectNode o = Json.object();
        ArrayNode skills = o.putArray("skills");
        r.skills().forEach(skills::add);
        ArrayNode system = o.putArray("system");
        r.system().forEach(system::add);
        ArrayNode messages = o.putArray("messages");
        for (Message m : r.messages()) {
            messages.addObject().put("role", m.role() == Role.USER ? "user" : "assistant").put("content", m.text());
        }
        o.set("hints", r.hints().toJson());
        return o;
    }

    static ObjectNode installation(Installation i) {
        ObjectNode o = Json.object();
        o.put("skill_id", i.skill().id());
        ArrayNode models = o.putArray("models");
        i.models().forEach(models::add);
        o.put("installed_at", i.installedAt().toString());
        o.set("skill", ItemJson.write(i.skill()));
        return o;
    }
}
