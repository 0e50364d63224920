package dev.switchboard.server.config;

import dev.switchboard.engine.catalog.AllowedParams;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.CatalogSource;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.ReasoningProfile.EffortAs;
import dev.switchboard.engine.catalog.ReasoningProfile.Family;
import dev.switchboard.engine.catalog.ResponsesRequirement;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.ThinkingBudget;
import dev.switchboard.model.Reasoning.Effort;
import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Mapping;
import dev.switchboard.server.config.YamlNode.Pos;
import dev.switchboard.server.config.YamlNode.Scalar;
import dev.switchboard.server.config.YamlNode.Sequence;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Binds one {@code models:} entry to a {@link ModelEntry}, reporting every problem in it. Defaults, all
 * documented in {@code docs/config.example.yaml}:
 * <ul>
 *   <li>capability flags default to false, except {@code supports_json}, which defaults to
 *       {@code supports_tools}: every upstream that can call functions can also be steered to JSON
 *       (natively or through a forced tool), and those that cannot call tools usually cannot do either;</li>
 *   <li>{@code reasoning} defaults to family {@code always} when {@code supports_reasoning} is true (it
 *       never sends a hard "thinking off" that an always-reasoning upstream would reject) and to
 *       {@code none} otherwise; {@code efforts} default to low, medium, high; {@code effort_as} is unset
 *       (the adapter decides how an effort reaches the upstream);</li>
 *   <li>cache prices default to the usual ratios of the input price
 *       ({@link Pricing#withDefaultCacheRatios});</li>
 *   <li>a route entry without {@code model} uses the model id as the upstream name;</li>
 *   <li>{@code owned_by} defaults to the provider id of the first route entry;</li>
 *   <li>{@code plans} (the plans that cover the model) to none, {@code payg} (whether pay-as-you-go callers may use
 *       it) to true;</li>
 *   <li>{@code refused_params} defaults to none, {@code responses_api} to not_needed, {@code source} and
 *       {@code reasoning.budget} to unknown.</li>
 * </ul>
 * Aliases are only checked for form here; collisions between models are the caller's job.
 */
final class ModelBinder {
    static final List<String> KEYS = List.of("display_name", "owned_by", "aliases", "context_length", "max_output_tokens",
            "supports_reasoning", "supports_vision", "supports_tools", "supports_caching", "supports_json", "reasoning",
            "pricing", "plans", "payg", "route", "refused_params", "responses_api", "source");
    static final List<String> REASONING_KEYS = List.of("family", "efforts", "effort_as", "budget");
    static final List<String> BUDGET_KEYS = List.of("min", "max", "below_max_tokens");
    static final List<String> SOURCE_KEYS = List.of("url", "as_of", "note");
    static final List<String> PRICING_KEYS = List.of("input", "output", "cache_read", "cache_write_5m", "cache_write_1h");
    static final List<String> ROUTE_KEYS = List.of("provider", "model");
    static final List<Effort> DEFAULT_EFFORTS = List.of(Effort.LOW, Effort.MEDIUM, Effort.HIGH);

    private static final String ROUTE_EXAMPLE = "route: [{provider: openai, model: gpt-4o}]";
    private static final String PRICING_EXAMPLE = "pricing: {input: 2.50, output: 10.00}";
    private static final String BUDGET_EXAMPLE = "budget: {min: 1024, max: 32000}";
    private static final String SOURCE_EXAMPLE = "source: {url: https://example.com/pricing, as_of: 2026-11-01}";

    /** What to do with a route entry that names a provider that is not configured. */
    enum UnknownProviders {
        /** A problem: the operator's own file must be consistent. */
        REPORT,
        /** Drop the entry silently: the shipped catalog routes to providers the operator may not have. */
        DROP
    }

    /**
     * The bound model (empty when it has problems, or when {@link UnknownProviders#DROP} left it without a
     * route), and its well-formed aliases with their positions, kept even when the model has problems so
     * that alias collisions are still reported in the same run.
     */
    record Result(Optional<ModelEntry> entry, Pos idPos, List<Scalar> aliases) {
    }

    private final Set<String> providerIds;
    private final UnknownProviders unknownProviders;
    private final Problems problems;

    ModelBinder(Set<String> providerIds, UnknownProviders unknownProviders, Problems problems) {
        this.providerIds = Set.copyOf(providerIds);
        this.unknownProviders = unknownProviders;
        this.problems = problems;
    }

    /** Binds one model, reporting its problems; see {@link Result}. */
    Result bind(Entry entry) {
        String id = entry.key();
        String where = "model '" + id + "'";
        int before = problems.size();
        if (id.isBlank() || !id.chars().allMatch(c -> c > ' ' && c != 0x7f)) {
            problems.add(entry.keyPos(), "model id '" + id + "' must not contain spaces or control characters");
        } else if (id.contains("${")) {
            problems.add(entry.keyPos(), "model id '" + id + "' looks like a variable, but ${VAR} is expanded in values, not in keys "
                    + "(write the id itself)");
        }
        Optional<YamlFields> f = YamlFields.of(entry, where, "{context_length: 128000, max_output_tokens: 16384, " + PRICING_EXAMPLE + ", "
                + ROUTE_EXAMPLE + "}", problems);
        if (f.isEmpty()) {
            return new Result(Optional.empty(), entry.keyPos(), List.of());
        }
        YamlFields m = f.get();
        m.allowOnly(KEYS);

        Optional<String> displayName = m.string("display_name", "display_name: GPT-4o");
        Optional<String> ownedBy = m.string("owned_by", "owned_by: openai");
        List<Scalar> aliases = names(m, "aliases", "aliases: [gpt-4o-latest]");
        OptionalLong context = m.integer("context_length", 1, Integer.MAX_VALUE, "context_length: 128000");
        OptionalLong maxOutput = m.integer("max_output_tokens", 1, Integer.MAX_VALUE, "max_output_tokens: 16384");
        if (!m.has("context_length")) {
            m.missing("context_length", "add context_length: N, the context window in tokens");
        }
        if (!m.has("max_output_tokens")) {
            m.missing("max_output_tokens", "add max_output_tokens: N, the cap applied to max_tokens");
        }
        if (context.isPresent() && maxOutput.isPresent() && maxOutput.getAsLong() > context.getAsLong()) {
            problems.add(m.entry("max_output_tokens").orElseThrow().value().pos(), m.label("max_output_tokens") + " ("
                    + maxOutput.getAsLong() + ") is larger than its context_length (" + context.getAsLong() + ")");
        }
        Capabilities caps = capabilities(m);
        ReasoningProfile reasoning = reasoning(m, caps.supportsReasoning(), context);
        Optional<Pricing> pricing = pricing(m);
        Set<String> refused = refusedParams(m);
        ResponsesRequirement responsesApi = responsesApi(m);
        Optional<CatalogSource> source = source(m);
        List<String> plans = names(m, "plans", "plans: [pro]").stream().map(Scalar::text).toList();
        boolean payg = m.bool("payg").orElse(true);
        List<RouteTarget> route = route(m, id);

        if (problems.size() > before || pricing.isEmpty() || context.isEmpty() || maxOutput.isEmpty() || route.isEmpty()) {
            return new Result(Optional.empty(), entry.keyPos(), aliases);
        }
        ModelEntry model = new ModelEntry(id, aliases.stream().map(Scalar::text).toList(), displayName,
                ownedBy.orElse(route.get(0).providerId()), context.getAsLong(), (int) maxOutput.getAsLong(), caps, reasoning,
                pricing.get(), plans, route, refused, responsesApi, source, payg);
        return new Result(Optional.of(model), entry.keyPos(), aliases);
    }

    /** A list of names: trimmed, non-blank, no spaces, no repeats. */
    private List<Scalar> names(YamlFields m, String key, String example) {
        List<Scalar> out = new ArrayList<>();
        for (Scalar s : m.scalars(key, example).orElse(List.of())) {
            String name = s.text().trim();
            if (name.isEmpty() || !name.chars().allMatch(c -> c > ' ' && c != 0x7f)) {
                problems.add(s, "'" + s.text() + "' in " + m.label(key) + " must be a name without spaces");
            } else if (out.stream().anyMatch(o -> o.text().equals(name))) {
                problems.add(s, "'" + name + "' is listed twice in " + m.label(key) + " (remove one)");
            } else {
                out.add(new Scalar(name, false, s.pos(), s.variables()));
            }
        }
        return out;
    }

    private static Capabilities capabilities(YamlFields m) {
        boolean tools = m.bool("supports_tools").orElse(false);
        return new Capabilities(m.bool("supports_reasoning").orElse(false), m.bool("supports_vision").orElse(false), tools,
                m.bool("supports_caching").orElse(false), m.bool("supports_json").orElse(tools));
    }

    private ReasoningProfile reasoning(YamlFields m, boolean supportsReasoning, OptionalLong context) {
        Optional<YamlFields> f = m.section("reasoning", "reasoning of " + m.where(),
                "reasoning: {family: hybrid, efforts: [low, medium, high]}", REASONING_KEYS);
        if (f.isEmpty()) {
            return supportsReasoning ? new ReasoningProfile(Family.ALWAYS, DEFAULT_EFFORTS) : ReasoningProfile.NONE;
        }
        YamlFields r = f.get();
        Optional<Scalar> familyText = r.scalar("family", "family: hybrid");
        Optional<Family> family = familyText.flatMap(s -> family(s, r));
        if (familyText.isEmpty() && !r.has("family")) {
            r.missing("family", "add family: hybrid, always or none");
        }
        Family fam = family.orElse(supportsReasoning ? Family.ALWAYS : Family.NONE);
        if (family.isPresent()) {
            Scalar at = familyText.orElseThrow();
            if (supportsReasoning && fam == Family.NONE) {
                problems.add(at, m.where() + " has supports_reasoning: true but reasoning.family none (use hybrid or always, "
                        + "or set supports_reasoning: false)");
            } else if (!supportsReasoning && fam != Family.NONE) {
                problems.add(at, m.where() + " has reasoning.family " + fam.name().toLowerCase(Locale.ROOT)
                        + " but supports_reasoning is not true (set supports_reasoning: true, or remove reasoning)");
            }
        }
        List<Effort> efforts = efforts(r, fam);
        return new ReasoningProfile(fam, efforts, effortAs(r, fam), budget(r, fam, context));
    }

    /**
     * {@code reasoning.budget}: the token budgets the upstream accepts when thinking is on, as
     * {@code {min, max, below_max_tokens}}, or {@code none} when it takes effort levels only.
     */
    private Optional<ThinkingBudget> budget(YamlFields r, Family family, OptionalLong context) {
        Optional<Entry> entry = r.entry("budget");
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        Pos at = entry.get().keyPos();
        if (family == Family.NONE) {
            problems.add(at, r.where() + " gives a budget but its family is none (remove budget)");
            return Optional.empty();
        }
        if (entry.get().value() instanceof Scalar word) {
            if (word.text().trim().equals("none")) {
                return Optional.of(new ThinkingBudget.Refused());
            }
            problems.add(word, r.label("budget") + " must be none (the upstream takes effort levels only) or a range, e.g. "
                    + BUDGET_EXAMPLE + ", got '" + word.text() + "'");
            return Optional.empty();
        }
        Optional<YamlFields> f = r.section("budget", "budget of " + r.where(), BUDGET_EXAMPLE, BUDGET_KEYS);
        if (f.isEmpty()) {
            return Optional.empty();
        }
        YamlFields b = f.get();
        long ceiling = context.orElse(Integer.MAX_VALUE);
        OptionalLong min = b.integer("min", 1, ceiling, "min: 1024");
        OptionalLong max = b.integer("max", 1, ceiling, "max: 32000");
        boolean belowMaxTokens = b.bool("below_max_tokens").orElse(false);
        for (String required : List.of("min", "max")) {
            if (!b.has(required)) {
                b.missing(required, "add " + required + ": N, in tokens (" + BUDGET_EXAMPLE + ")");
            }
        }
        if (min.isEmpty() || max.isEmpty()) {
            return Optional.empty();
        }
        if (max.getAsLong() < min.getAsLong()) {
            problems.add(b.entry("max").orElseThrow().value().pos(), b.label("max") + " (" + max.getAsLong()
                    + ") is smaller than its min (" + min.getAsLong() + ")");
            return Optional.empty();
        }
        return Optional.of(new ThinkingBudget.Range((int) min.getAsLong(), (int) max.getAsLong(), belowMaxTokens));
    }

    /** {@code refused_params}: sampling parameters the model refuses, from {@link AllowedParams#REFUSABLE}. */
    private Set<String> refusedParams(YamlFields m) {
        List<String> known = AllowedParams.REFUSABLE.stream().sorted().toList();
        Set<String> out = new LinkedHashSet<>();
        for (Scalar s : names(m, "refused_params", "refused_params: [temperature, top_p]")) {
            if (AllowedParams.REFUSABLE.contains(s.text())) {
                out.add(s.text());
            } else {
                problems.add(s, "'" + s.text() + "' in " + m.label("refused_params") + " is not a sampling parameter a model can "
                        + "refuse (expected some of: " + String.join(", ", known) + Suggestions.hint(s.text(), known) + ")");
            }
        }
        return out;
    }

    /** {@code responses_api}: only, for_reasoning_tools or not_needed (the default). */
    private ResponsesRequirement responsesApi(YamlFields m) {
        Optional<Scalar> given = m.scalar("responses_api", "responses_api: only");
        if (given.isEmpty()) {
            return ResponsesRequirement.NOT_NEEDED;
        }
        String t = given.get().text().trim().toLowerCase(Locale.ROOT);
        List<String> names = Arrays.stream(ResponsesRequirement.values()).map(ResponsesRequirement::wire).toList();
        for (ResponsesRequirement r : ResponsesRequirement.values()) {
            if (r.wire().equals(t)) {
                return r;
            }
        }
        problems.add(given.get(), "unknown responses_api '" + given.get().text() + "' in " + m.where() + " (expected only (the vendor "
                + "serves the model only through OpenAI's Responses API), for_reasoning_tools (its chat completions refuse function "
                + "tools with a reasoning effort) or not_needed" + Suggestions.hint(t, names) + ")");
        return ResponsesRequirement.NOT_NEEDED;
    }

    /** {@code source}: where the model's prices and limits come from, and the date of that document. */
    private Optional<CatalogSource> source(YamlFields m) {
        Optional<YamlFields> f = m.section("source", "source of " + m.where(), SOURCE_EXAMPLE, SOURCE_KEYS);
        if (f.isEmpty()) {
            return Optional.empty();
        }
        YamlFields s = f.get();
        Optional<Scalar> url = s.scalar("url", "url: https://example.com/pricing");
        Optional<Scalar> asOf = s.scalar("as_of", "as_of: 2026-11-01");
        Optional<String> note = s.string("note", "note: promotional price until 2026-12-31").map(String::trim);
        for (String required : List.of("url", "as_of")) {
            if (!s.has(required)) {
                s.missing(required, "add " + required + " (" + SOURCE_EXAMPLE + ")");
            }
        }
        Optional<String> link = url.flatMap(u -> {
            String t = u.text().trim();
            if (t.startsWith("https://") || t.startsWith("http://")) {
                return Optional.of(t);
            }
            problems.add(u, s.label("url") + " must be an http:// or https:// address of the published source, got '" + t + "'");
            return Optional.empty();
        });
        Optional<LocalDate> date = asOf.flatMap(d -> {
            try {
                return Optional.of(LocalDate.parse(d.text().trim()));
            } catch (DateTimeParseException e) {
                problems.add(d, s.label("as_of") + " must be a date written YYYY-MM-DD, got '" + d.text() + "'");
                return Optional.empty();
            }
        });
        if (link.isEmpty() || date.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CatalogSource(link.get(), date.get(), note.filter(n -> !n.isEmpty())));
    }

    private Optional<EffortAs> effortAs(YamlFields r, Family family) {
        Optional<Scalar> given = r.scalar("effort_as", "effort_as: budget");
        if (given.isEmpty()) {
            return Optional.empty();
        }
        String t = given.get().text().trim().toLowerCase(Locale.ROOT);
        List<String> names = Arrays.stream(EffortAs.values()).map(x -> x.name().toLowerCase(Locale.ROOT)).toList();
        if (!names.contains(t)) {
            problems.add(given.get(), "unknown effort_as '" + given.get().text() + "' in " + r.where() + " (expected budget (a token "
                    + "budget, e.g. Gemini 2.5 thinkingBudget) or level (a named level, e.g. Gemini 3 thinkingLevel)"
                    + Suggestions.hint(t, names) + ")");
            return Optional.empty();
        }
        if (family == Family.NONE) {
            problems.add(given.get(), r.where() + " sets effort_as but its family is none (remove effort_as)");
            return Optional.empty();
        }
        return Optional.of(EffortAs.valueOf(t.toUpperCase(Locale.ROOT)));
    }

    private Optional<Family> family(Scalar s, YamlFields r) {
        String t = s.text().trim().toLowerCase(Locale.ROOT);
        for (Family fam : Family.values()) {
            if (fam.name().toLowerCase(Locale.ROOT).equals(t)) {
                return Optional.of(fam);
            }
        }
        List<String> names = Arrays.stream(Family.values()).map(x -> x.name().toLowerCase(Locale.ROOT)).toList();
        problems.add(s, "unknown reasoning family '" + s.text() + "' in " + r.where() + " (expected one of: hybrid (thinking can be "
                + "switched off), always (it always reasons, effort sets how much), none" + Suggestions.hint(t, names) + ")");
        return Optional.empty();
    }

    private List<Effort> efforts(YamlFields r, Family family) {
        Optional<List<Scalar>> given = r.scalars("efforts", "efforts: [low, medium, high]");
        if (given.isEmpty()) {
            return family == Family.NONE ? List.of() : DEFAULT_EFFORTS;
        }
        List<String> names = Arrays.stream(Effort.values()).map(Effort::wire).toList();
        EnumSet<Effort> out = EnumSet.noneOf(Effort.class);
        for (Scalar s : given.get()) {
            String t = s.text().trim().toLowerCase(Locale.ROOT);
            Optional<Effort> e = Effort.parse(t);
            if (e.isEmpty()) {
                problems.add(s, "unknown effort '" + s.text() + "' in " + r.where() + " (expected some of: " + String.join(", ", names)
                        + Suggestions.hint(t, names) + ")");
            } else if (!out.add(e.get())) {
                problems.add(s, "effort '" + t + "' is listed twice in " + r.where());
            }
        }
        Pos at = r.entry("efforts").orElseThrow().keyPos();
        if (family == Family.NONE && !given.get().isEmpty()) {
            problems.add(at, r.where() + " lists efforts but its family is none (remove efforts)");
        } else if (family != Family.NONE && given.get().isEmpty()) {
            problems.add(at, r.label("efforts") + " is empty (list the levels the upstream accepts, or remove efforts for the default "
                    + "[low, medium, high])");
        }
        // Sorted from least to most effort: clamping to the nearest accepted level relies on that order.
        return out.stream().sorted(Comparator.naturalOrder()).toList();
    }

    private Optional<Pricing> pricing(YamlFields m) {
        Optional<YamlFields> f = m.map("pricing", "pricing of " + m.where(), PRICING_EXAMPLE);
        if (f.isEmpty()) {
            if (!m.has("pricing")) {
                m.missing("pricing", "add " + PRICING_EXAMPLE + " in USD per million tokens; {input: 0, output: 0} for a free model");
            }
            return Optional.empty();
        }
        YamlFields p = f.get();
        p.allowOnly(PRICING_KEYS);
        OptionalLong input = price(p, "input");
        OptionalLong output = price(p, "output");
        OptionalLong cacheRead = price(p, "cache_read");
        OptionalLong write5m = price(p, "cache_write_5m");
        OptionalLong write1h = price(p, "cache_write_1h");
        for (String required : List.of("input", "output")) {
            if (!p.has(required)) {
                p.missing(required, "add " + required + ": N in USD per million tokens");
            }
        }
        if (input.isEmpty() || output.isEmpty()) {
            return Optional.empty();
        }
        Pricing d = Pricing.withDefaultCacheRatios(input.getAsLong(), output.getAsLong());
        return Optional.of(new Pricing(d.inputPerMillion(), d.outputPerMillion(), cacheRead.orElse(d.cacheReadPerMillion()),
                write5m.orElse(d.cacheWrite5mPerMillion()), write1h.orElse(d.cacheWrite1hPerMillion())));
    }

    private OptionalLong price(YamlFields p, String key) {
        Optional<Scalar> s = p.scalar(key, key + ": 0.15");
        if (s.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(UsdPrices.toNanos(s.get().text()));
        } catch (UsdPrices.InvalidPrice e) {
            problems.add(s.get(), p.label(key) + " " + e.getMessage());
            return OptionalLong.empty();
        }
    }

    private List<RouteTarget> route(YamlFields m, String modelId) {
        Optional<Sequence> seq = m.list("route", ROUTE_EXAMPLE);
        if (seq.isEmpty()) {
            if (!m.has("route")) {
                m.missing("route", "add " + ROUTE_EXAMPLE + ", the ordered provider pool");
            }
            return List.of();
        }
        if (seq.get().items().isEmpty()) {
            problems.add(m.entry("route").orElseThrow().keyPos(), m.label("route") + " is empty (add at least one entry, e.g. "
                    + ROUTE_EXAMPLE + ")");
            return List.of();
        }
        List<RouteTarget> out = new ArrayList<>();
        int n = 0;
        for (YamlNode item : seq.get().items()) {
            n++;
            String where = "route entry " + n + " of " + m.where();
            if (!(item instanceof Mapping map)) {
                problems.add(item.pos(), where + " must be {provider: ID, model: UPSTREAM_NAME}, got " + item.kind());
                continue;
            }
            YamlFields r = new YamlFields(map, item.pos(), where, problems);
            r.allowOnly(ROUTE_KEYS);
            Optional<Scalar> provider = r.scalar("provider", "provider: openai");
            Optional<String> upstream = r.string("model", "model: gpt-4o").map(String::trim);
            if (provider.isEmpty()) {
                if (!r.has("provider")) {
                    r.missing("provider", "add provider: ID, one of the ids under providers:");
                }
                continue;
            }
            String pid = provider.get().text().trim();
            if (!providerIds.contains(pid)) {
                if (unknownProviders == UnknownProviders.REPORT) {
                    problems.add(provider.get(), where + " names unknown provider '" + pid + "' (configured providers: "
                            + (providerIds.isEmpty() ? "none" : String.join(", ", providerIds.stream().sorted().toList()))
                            + Suggestions.hint(pid, providerIds) + "; add it under providers: or fix the name)");
                }
                continue;
            }
            if (upstream.isPresent() && upstream.get().isEmpty()) {
                problems.add(r.entry("model").orElseThrow().value().pos(), r.label("model") + " is empty (give the name the provider knows the model by)");
                continue;
            }
            out.add(new RouteTarget(pid, upstream.orElse(modelId)));
        }
        return out;
    }
}
