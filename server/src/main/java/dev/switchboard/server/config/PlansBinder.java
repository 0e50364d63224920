package dev.switchboard.server.config;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Plan;
import dev.switchboard.engine.catalog.Plans;
import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Scalar;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Binds the {@code plans:} and {@code billing:} sections. A plan is {@code {models: [...], rpm: N,
 * daily_tokens: N}}, every key optional ({@code pro: {}} is a plan that covers only the models naming it);
 * its models are ids or aliases of configured models, kept as ids. The plans models name must be declared
 * here. {@code payg} is the name of pay-as-you-go and cannot be a plan.
 */
final class PlansBinder {
    static final List<String> PLAN_KEYS = List.of("models", "rpm", "daily_tokens");
    static final List<String> BILLING_KEYS = List.of("hold_timeout", "sweep_every");
    private static final String EXAMPLE = "plans: {pro: {models: [gpt-4o], rpm: 60, daily_tokens: 1000000}}";

    private PlansBinder() {
    }

    /** The plans, with their model references resolved against {@code models}; problems reported. */
    static Plans plans(YamlFields top, List<ModelEntry> models, Problems problems) {
        List<Plan> out = new ArrayList<>();
        List<String> declared = new ArrayList<>();
        Optional<YamlFields> section = top.map("plans", "'plans'", EXAMPLE);
        section.ifPresent(s -> {
            for (Entry e : s.mapping().entries()) {
                declared.add(e.key());
                plan(e, models, problems).ifPresent(out::add);
            }
        });
        for (ModelEntry m : models) {
            for (String p : m.plans()) {
                if (!declared.contains(p)) {
                    problems.add(section.map(s -> s.mapping().pos()).orElse(top.mapping().pos()), "model '" + m.id()
                            + "' names plan '" + p + "', which is not declared (add it under plans:, e.g. plans: {" + p + ": {}})"
                            + Suggestions.hint(p, declared));
                }
            }
        }
        return problems.isEmpty() ? new Plans(out) : Plans.NONE;
    }

    private static Optional<Plan> plan(Entry e, List<ModelEntry> models, Problems problems) {
        String id = e.key();
        if (id.equals(Plans.PAYG)) {
            problems.add(e.keyPos(), "'" + Plans.PAYG + "' is pay-as-you-go, what users without a plan are on; it cannot be "
                    + "declared as a plan (rename it)");
            return Optional.empty();
        }
        if (id.isBlank() || !id.chars().allMatch(c -> c > ' ' && c != 0x7f)) {
            problems.add(e.keyPos(), "plan id '" + id + "' must not contain spaces or control characters");
            return Optional.empty();
        }
        if (e.value() instanceof Scalar blank && blank.isNull()) {
            return Optional.of(Plan.of(id, List.of()));
        }
        Optional<YamlFields> f = YamlFields.of(e, "plan '" + id + "'", "{models: [gpt-4o], rpm: 60, daily_tokens: 1000000}",
                problems);
        if (f.isEmpty()) {
            return Optional.empty();
        }
        YamlFields p = f.get();
        p.allowOnly(PLAN_KEYS);
        int before = problems.size();
        List<String> covered = new ArrayList<>();
        for (Scalar s : p.scalars("models", "models: [gpt-4o]").orElse(List.of())) {
            String name = s.text().trim();
            Optional<ModelEntry> m = models.stream().filter(x -> x.id().equals(name) || x.aliases().contains(name)).findFirst();
            if (m.isEmpty()) {
                problems.add(s, "'" + name + "' in " + p.label("models") + " is not a configured model"
                        + Suggestions.hint(name, models.stream().map(ModelEntry::id).toList()));
            } else if (!covered.contains(m.get().id())) {
                covered.add(m.get().id());
            }
        }
        OptionalLong rpm = p.integer("rpm", 1, Integer.MAX_VALUE, "rpm: 60");
        OptionalLong daily = p.integer("daily_tokens", 1, Long.MAX_VALUE, "daily_tokens: 1000000");
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new Plan(id, covered, rpm.isPresent() ? OptionalInt.of((int) rpm.getAsLong()) : OptionalInt.empty(),
                daily));
    }

    static BillingSettings billing(YamlFields top) {
        return top.section("billing", "billing: {hold_timeout: 1h, sweep_every: 1m}", BILLING_KEYS)
                .map(b -> new BillingSettings(duration(b, "hold_timeout", BillingSettings.DEFAULT.holdTimeout()),
                        duration(b, "sweep_every", BillingSettings.DEFAULT.sweepEvery())))
                .orElse(BillingSettings.DEFAULT);
    }

    private static Duration duration(YamlFields b, String key, Duration fallback) {
        return b.scalar(key, key + ": 1h").flatMap(s -> {
            Optional<Duration> v = Durations.parse(s.text()).filter(d -> !d.isZero() && !d.isNegative());
            if (v.isEmpty()) {
                b.problems().add(s, b.label(key) + " must be a positive duration, got '" + s.text() + "' (expected "
                        + Durations.EXPECTED + ")");
            }
            return v;
        }).orElse(fallback);
    }
}
