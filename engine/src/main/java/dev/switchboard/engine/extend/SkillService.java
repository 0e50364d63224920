package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.account.Ids;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.engine.cache.ExpiringCache;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Users' skills: listing, reading, writing their own, forking and installing (spec 4), with the rules of
 * ownership and visibility: another user's private skill does not exist for the caller (404); another user's
 * visible skill, or an official one, is read-only (403); only the owner writes or deletes a skill.
 */
public final class SkillService implements SkillLookup {
    /**
     * How long the chat pipeline's lookups ({@link #usable}, {@link #installedFor}) are reused: every chat request
     * asks for the caller's installed skills. Changes through this instance take effect here at once; other
     * instances see them within this time (as for API keys and saved defaults).
     */
    public static final Duration CACHE_TTL = Duration.ofSeconds(1);
    private static final int CACHE_MAX = 10_000;

    private final CatalogStore catalog;
    private final SkillStore skills;
    private final Function<String, Optional<String>> canonicalModel;
    private final Clock clock;
    private final ExpiringCache<String, Optional<Skill>> byId;
    private final ExpiringCache<String, List<Installation>> installsByUser;

    /** @param canonicalModel the canonical id of a model id or alias, empty when the gateway has no such model */
    public SkillService(CatalogStore catalog, SkillStore skills, Function<String, Optional<String>> canonicalModel, Clock clock) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.skills = Objects.requireNonNull(skills, "skills");
        this.canonicalModel = Objects.requireNonNull(canonicalModel, "canonicalModel");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.byId = new ExpiringCache<>(clock, CACHE_TTL, CACHE_MAX);
        this.installsByUser = new ExpiringCache<>(clock, CACHE_TTL, CACHE_MAX);
    }

    /** Public skills. */
    public Page<Skill> list(ListQuery query) {
        return catalog.list(ItemKind.SKILL, CatalogStore.LISTED, query).map(Skill.class::cast);
    }

    /** Every skill the viewer created, whatever its visibility. */
    public Page<Skill> listOwn(Viewer viewer, ListQuery query) {
        return catalog.list(ItemKind.SKILL, new CatalogStore.Audience.OwnedBy(viewer.userId()), query).map(Skill.class::cast);
    }

    /** The tags of public skills, most used first. */
    public List<TagCount> tags(Optional<String> search) {
        return catalog.tags(ItemKind.SKILL, search.map(s -> s.strip().toLowerCase(java.util.Locale.ROOT)).filter(s -> !s.isEmpty()),
                200);
    }

    /** One skill as {@code viewer} (empty: anonymous) may read it; 404 otherwise. */
    public Skill get(String id, Optional<Viewer> viewer) {
        return readable(id, viewer.map(Viewer::userId));
    }

    public Skill create(Viewer viewer, JsonNode body) {
        JsonInput in = JsonInput.of(body, "");
        in.allowOnly(SkillDraft.WRITABLE, SkillDraft.GATEWAY_OWNED);
        SkillDraft d = SkillDraft.read(in, true);
        Instant now = now();
        Skill skill = new Skill(new ItemHeader(Ids.next("skl", now), d.name().orElseThrow(), d.description().orElseThrow(),
                d.tags().orElse(List.of()), now, now), Optional.of(viewer.userId()), viewer.username(), false,
                d.visibility().orElse(Visibility.PUBLIC), d.body().orElseThrow(), 0, 0, 0, Optional.empty());
        if (skills.create(skill, Limits.SKILLS_PER_USER) == SkillStore.Created.LIMIT_REACHED) {
            throw limitReached();
        }
        return skill;
    }

    /** Changes the fields present in {@code body}; only the owner may. */
    public Skill update(Viewer viewer, String id, JsonNode body) {
        JsonInput in = JsonInput.of(body, "");
        in.allowOnly(SkillDraft.WRITABLE, SkillDraft.GATEWAY_OWNED);
        SkillDraft d = SkillDraft.read(in, false);
        Skill s = owned(viewer, id);
        Skill updated = new Skill(new ItemHeader(s.id(), d.name().orElse(s.name()), d.description().orElse(s.description()),
                d.tags().orElse(s.tags()), s.createdAt(), now()), s.ownerId(), s.creatorUsername(), s.official(),
                d.visibility().orElse(s.visibility()), d.body().orElse(s.body()), s.likes(), s.useCount(), s.forks(),
                s.forkedFrom());
        catalog.save(updated, CatalogStore.OnConflict.REPLACE);
        changed(id);
        return (Skill) catalog.find(ItemKind.SKILL, id).orElseThrow(() -> notFound(id));
    }

    public void delete(Viewer viewer, String id) {
        owned(viewer, id);
        catalog.delete(ItemKind.SKILL, id);
        changed(id);
    }

    /**
     * Copies a skill the viewer may read to the viewer: private, {@code forked_from} the source, the source's
     * {@code forks} one higher. {@code body} may set the copy's {@code name}, {@code description},
     * {@code visibility} and {@code tags}.
     */
    public Skill fork(Viewer viewer, String id, JsonNode body) {
        JsonInput in = JsonInput.of(body, "");
        in.allowOnly(Set.of("name", "description", "visibility", "tags"), SkillDraft.GATEWAY_OWNED);
        SkillDraft d = SkillDraft.read(in, false);
        Skill source = readable(id, Optional.of(viewer.userId()));
        Instant now = now();
        Skill copy = new Skill(new ItemHeader(Ids.next("skl", now), d.name().orElse(source.name()),
                d.description().orElse(source.description()), d.tags().orElse(source.tags()), now, now),
                Optional.of(viewer.userId()), viewer.username(), false, d.visibility().orElse(Visibility.PRIVATE), source.body(),
                0, 0, 0, Optional.of(source.id()));
        return switch (skills.fork(copy, Limits.SKILLS_PER_USER)) {
            case CREATED -> copy;
            case LIMIT_REACHED -> throw limitReached();
            case NO_SOURCE -> throw notFound(id);
        };
    }

    /** Installs a skill the viewer may use, for every model or ({@code {models: [...]}}) only those. */
    public Installation install(Viewer viewer, String id, JsonNode body) {
        JsonInput in = JsonInput.of(body, "");
        in.allowOnly(Set.of("models"), Set.of());
        List<String> raw = in.texts("models", Limits.INSTALL_MODELS, 200);
        Set<String> models = new LinkedHashSet<>();
        for (int i = 0; i < raw.size(); i++) {
            String field = "models[" + i + "]";
            String asked = raw.get(i);
            models.add(canonicalModel.apply(asked).orElseThrow(() -> GatewayError.invalid(field, field + ": the gateway has no model '"
                    + asked + "' (see GET /v1/models)").toException()));
        }
        readable(id, Optional.of(viewer.userId()));
        refuseTooManyFor(skills.installations(viewer.userId()), id, models);
        if (!skills.install(viewer.userId(), id, List.copyOf(models), now())) {
            throw notFound(id);
        }
        installsByUser.forget(viewer.userId());
        return installed(viewer).stream().filter(i -> i.skill().id().equals(id)).findFirst().orElseThrow(() -> notFound(id));
    }

    /** Whether it was installed. */
    public boolean uninstall(Viewer viewer, String id) {
        boolean removed = skills.uninstall(viewer.userId(), id);
        installsByUser.forget(viewer.userId());
        return removed;
    }

    /**
     * Refuses an installation after which more than {@value Limits#SKILLS_PER_REQUEST} installed skills would apply
     * to one model (the most that apply to one chat request). {@code models} empty: every model.
     */
    private static void refuseTooManyFor(List<Installation> existing, String id, Set<String> models) {
        List<Installation> others = existing.stream().filter(i -> !i.skill().id().equals(id)).toList();
        long everywhere = others.stream().filter(i -> i.models().isEmpty()).count();
        Map<String, Long> perModel = new java.util.TreeMap<>();
        others.stream().flatMap(i -> i.models().stream()).forEach(m -> perModel.merge(m, 1L, Long::sum));
        Set<String> touched = models.isEmpty() ? perModel.keySet() : models;
        long busiest = touched.stream().mapToLong(m -> perModel.getOrDefault(m, 0L)).max().orElse(0);
        if (everywhere + busiest + 1 > Limits.SKILLS_PER_REQUEST) {
            String where = touched.stream().filter(m -> perModel.getOrDefault(m, 0L) == busiest).findFirst()
                    .filter(m -> busiest > 0).map(m -> "the model '" + m + "'").orElse("every model");
            throw new GatewayError(409, "limit_reached", "At most " + Limits.SKILLS_PER_REQUEST + " installed skills can"
                    + " apply to one model, and " + where + " has " + (everywhere + busiest) + " already; uninstall one, or"
                    + " install this skill for other models ({\"models\": [...]}).", Optional.empty(), false).toException();
        }
    }

    /** The viewer's installed skills that are still usable, in install order. */
    public List<Installation> installed(Viewer viewer) {
        Optional<String> user = Optional.of(viewer.userId());
        return skills.installations(viewer.userId()).stream().filter(i -> i.skill().readableBy(user)).toList();
    }

    @Override
    public Optional<Skill> usable(String skillId, String userId) {
        if (!EntryIds.plausible(skillId)) {
            return Optional.empty();
        }
        return byId.get(skillId, id -> catalog.find(ItemKind.SKILL, id).map(Skill.class::cast))
                .filter(s -> s.readableBy(Optional.of(userId)));
    }

    @Override
    public List<Skill> installedFor(String userId, String modelId) {
        Optional<String> user = Optional.of(userId);
        List<Skill> out = new ArrayList<>();
        for (Installation i : installsByUser.get(userId, skills::installations)) {
            if (i.appliesTo(modelId) && i.skill().readableBy(user)) {
                out.add(i.skill());
            }
        }
        return out;
    }

    @Override
    public void recordUses(Map<String, Long> counts) {
        if (!counts.isEmpty()) {
            skills.recordUses(counts);
        }
    }

    /** A skill changed or went: lookups that may hold it are dropped (installations embed their skills). */
    private void changed(String id) {
        byId.forget(id);
        installsByUser.forgetAll();
    }

    private Skill readable(String id, Optional<String> userId) {
        if (!EntryIds.plausible(id)) {
            throw notFound(id);
        }
        return catalog.find(ItemKind.SKILL, id).map(Skill.class::cast).filter(s -> s.readableBy(userId))
                .orElseThrow(() -> notFound(id));
    }

    /** The skill if the viewer owns it: 404 when the viewer cannot see it, 403 when it is someone else's. */
    private Skill owned(Viewer viewer, String id) {
        Skill s = readable(id, Optional.of(viewer.userId()));
        if (!s.ownedBy(viewer.userId())) {
            throw GatewayError.forbidden("forbidden", s.official()
                    ? "Official skills are managed by the operator; fork it (POST /v1/skills/" + id + "/fork) to change a copy of your own."
                    : "This skill belongs to " + s.creatorUsername() + "; fork it (POST /v1/skills/" + id
                            + "/fork) to change a copy of your own.").toException();
        }
        return s;
    }

    private static GatewayException notFound(String id) {
        return Refusals.notFound(ItemKind.SKILL, id);
    }

    private static GatewayException limitReached() {
        return new GatewayError(409, "limit_reached", "You own " + Limits.SKILLS_PER_USER
                + " skills, the most one account may have; delete one first.", Optional.empty(), false).toException();
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
