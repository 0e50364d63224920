package dev.switchboard.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.catalog.AllowedParams;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.ThinkingBudget;
import dev.switchboard.engine.defaults.SavedDefaultsService;
import dev.switchboard.engine.extend.SkillLookup;
import dev.switchboard.engine.defaults.DefaultParams;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.skills.SkillStack;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Model discovery: {@code GET /v1/models} in the OpenAI list shape plus each model's capability flags,
 * limits, reasoning controls and prices (USD per million tokens, with the source and date of the figures),
 * listing only models the caller's plan and key may use; and {@code GET /api/models/{id}/allowed-params}.
 *
 * <p>The same list serves the Anthropic SDKs ({@code models.list()} sends the key as {@code x-api-key}):
 * every entry also has Anthropic's {@code type: "model"}, {@code display_name} and {@code created_at}, and the
 * list Anthropic's paging fields ({@code has_more: false}, {@code first_id}, {@code last_id}). Each SDK reads
 * its own fields and ignores the others, so one shape answers both without guessing who asks.
 */
public final class ModelsApi {
    private final Catalog catalog;
    private final Authenticator auth;
    /**
     * The {@code created} of a model whose catalog entry names no source date: a fixed instant (2025-01-01T00:00:00Z),
     * so every instance and every restart answers the same list.
     */
    public static final long UNDATED_CREATED = 1_735_689_600L;
    private final Optional<SavedDefaultsService> defaults;
    private final SkillLookup skills;

    public ModelsApi(Catalog catalog, Authenticator auth) {
        this(catalog, auth, Optional.empty(), SkillLookup.NONE);
    }

    public ModelsApi(Catalog catalog, Authenticator auth, Optional<SavedDefaultsService> defaults, SkillLookup skills) {
        this.catalog = catalog;
        this.auth = auth;
        this.defaults = defaults;
        this.skills = skills;
    }

    /**
     * A model's {@code created} (epoch seconds): derived from the catalog, never from when this instance started,
     * so instances behind one load balancer agree: the date of the model's price source (midnight UTC), else
     * {@link #UNDATED_CREATED}.
     */
    public static long created(ModelEntry m) {
        return m.source().map(s -> s.asOf().atStartOfDay(java.time.ZoneOffset.UTC).toEpochSecond()).orElse(UNDATED_CREATED);
    }

    public void list(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER_OR_X_API_KEY, "models");
        ObjectNode body = Json.object();
        body.put("object", "list");
        ArrayNode data = body.putArray("data");
        for (ModelEntry m : catalog.models()) {
            if (catalog.plans().access(caller.plan(), m).usable() && caller.mayUseModel(m.id())) {
                ObjectNode entry = describe(m);
                entry.put("type", "model");
                if (!entry.has("display_name")) {
                    entry.put("display_name", m.id());
                }
                entry.put("created_at", java.time.Instant.ofEpochSecond(created(m)).toString());
                data.add(entry);
            }
        }
        body.put("has_more", false);
        body.put("first_id", data.isEmpty() ? null : data.get(0).path("id").asText());
        body.put("last_id", data.isEmpty() ? null : data.get(data.size() - 1).path("id").asText());
        ex.respondJson(200, body);
    }

    /** One model record: the OpenAI model object plus Switchboard's flags, limits and prices. */
    public ObjectNode describe(ModelEntry m) {
        ObjectNode o = Json.object();
        o.put("id", m.id());
        o.put("object", "model");
        o.put("created", created(m));
        o.put("owned_by", m.ownedBy());
        m.displayName().ifPresent(n -> o.put("display_name", n));
        o.put("context_length", m.contextLength());
        o.put("max_output_tokens", m.maxOutputTokens());
        Capabilities c = m.capabilities();
        o.put("supports_reasoning", c.supportsReasoning());
        o.put("supports_vision", c.supportsVision());
        o.put("supports_tools", c.supportsTools());
        o.put("supports_caching", c.supportsCaching());
        o.put("supports_json", c.supportsJson());
        ArrayNode aliases = o.putArray("aliases");
        m.aliases().forEach(aliases::add);
        Pricing p = m.pricing();
        ObjectNode pricing = o.putObject("pricing");
        pricing.put("unit", "USD per million tokens");
        pricing.put("input", usd(p.inputPerMillion()));
        pricing.put("output", usd(p.outputPerMillion()));
        pricing.put("cache_read", usd(p.cacheReadPerMillion()));
        pricing.put("cache_write_5m", usd(p.cacheWrite5mPerMillion()));
        pricing.put("cache_write_1h", usd(p.cacheWrite1hPerMillion()));
        m.source().ifPresent(src -> {
            pricing.put("source", src.url());
            pricing.put("as_of", src.asOf().toString());
            src.note().ifPresent(n -> pricing.put("note", n));
        });
        ArrayNode plans = o.putArray("plans");
        catalog.plans().covering(m).forEach(plans::add);
        o.put("pay_as_you_go", m.payAsYouGo());
        o.set("reasoning", reasoning(m.reasoning()));
        o.put("responses_api", m.responsesApi().wire());
        return o;
    }

    /** The reasoning controls a model takes: its family, accepted effort levels and budget range. */
    private static ObjectNode reasoning(ReasoningProfile r) {
        ObjectNode o = Json.object();
        o.put("family", r.family().name().toLowerCase(Locale.ROOT));
        ArrayNode efforts = o.putArray("efforts");
        r.efforts().forEach(e -> efforts.add(e.wire()));
        r.budget().ifPresent(b -> {
            ObjectNode budget = o.putObject("budget_tokens");
            switch (b) {
                case ThinkingBudget.Range range -> {
                    budget.put("accepted", true);
                    budget.put("min", range.min());
                    budget.put("max", range.max());
                    budget.put("below_max_tokens", range.belowMaxTokens());
                }
                case ThinkingBudget.Refused refused -> budget.put("accepted", false);
            }
        });
        return o;
    }

    private static BigDecimal usd(long nanos) {
        BigDecimal v = BigDecimal.valueOf(nanos, 9).stripTrailingZeros();
        return v.scale() < 0 ? v.setScale(0) : v;
    }

    /**
     * Public: which parameters a model allows (derived from its flags and its providers' types), and which
     * of those can be saved as per-model defaults ({@code defaultable_params}). A request that presents an
     * API key also gets that caller's saved defaults for the model ({@code defaults}, an empty object when
     * none are saved): what requests without those parameters will be sent, unless they say
     * {@code ignore_defaults}. {@code skills} says how requests name skills (the body fields, the header, the
     * most per request) and which hint parameters a skill may fill on this model; with a key it also lists the
     * caller's installed skills that apply to the model ({@code installed}: what requests naming no skill get).
     * A presented key that is invalid is a 401, as anywhere else.
     */
    public void allowedParams(Exchange ex) {
        String id = ex.pathParam("id");
        ModelEntry m = catalog.resolve(id).orElseThrow(() -> GatewayError.modelNotFound(id).toException());
        Optional<Caller> caller = auth.presentsCredentials(ex, Credentials.BEARER)
                ? Optional.of(auth.authenticate(ex, Credentials.BEARER, "models")) : Optional.empty();
        ObjectNode body = Json.object();
        body.put("id", m.id());
        ArrayNode params = body.putArray("allowed_params");
        Set<String> allowed = AllowedParams.of(m, catalog);
        allowed.forEach(params::add);
        ArrayNode types = body.putArray("provider_types");
        for (ProviderType t : AllowedParams.providerTypes(m, catalog)) {
            types.add(t.wire());
        }
        ArrayNode refused = body.putArray("refused_params");
        m.refusedParams().stream().sorted().forEach(refused::add);
        ArrayNode defaultable = body.putArray("defaultable_params");
        allowed.stream().filter(DefaultParams.NAMES::contains).forEach(defaultable::add);
        if (caller.isPresent() && defaults.isPresent()) {
            body.set("defaults", defaults.get().get(caller.get().userId(), m.id())
                    .map(saved -> Json.parse(saved.paramsJson())).orElseGet(Json::object));
        }
        ObjectNode skillInfo = body.putObject("skills");
        skillInfo.putArray("fields").add("skill").add("skills");
        skillInfo.put("header", "x-switchboard-skills");
        skillInfo.put("max_per_request", SkillStack.MAX_SKILLS);
        ArrayNode hints = skillInfo.putArray("hint_params");
        List.of("temperature", "top_p", "max_tokens").stream().filter(p -> !m.refusedParams().contains(p)).forEach(hints::add);
        if (m.capabilities().supportsReasoning()) {
            hints.add("reasoning_effort");
        }
        caller.ifPresent(c -> {
            ArrayNode installed = skillInfo.putArray("installed");
            skills.installedFor(c.userId(), m.id()).forEach(skill -> installed.add(skill.id()));
        });
        ex.respondJson(200, body);
    }
}
