package dev.switchboard.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.Plan;
import dev.switchboard.engine.catalog.Plans;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PlansConfigTest {
    private static final String MODELS = """
            providers:
              openai: {type: openai, keys: [sk-1]}
            models:
              m1:
                aliases: [m1-latest]
                context_length: 1000
                max_output_tokens: 100
                pricing: {input: 1, output: 2}
                route: [{provider: openai}]
              m2:
                context_length: 1000
                max_output_tokens: 100
                pricing: {input: 1, output: 2}
                plans: [team]
                payg: false
                route: [{provider: openai}]
            """;

    @Test
    void plansCoverTheModelsTheyNameAndThoseNamingThemWithTheirCaps() {
        GatewayConfig c = ConfigSupport.parse(MODELS + """
                plans:
                  pro: {models: [m1-latest], rpm: 60, daily_tokens: 2000000}
                  team:
                billing: {hold_timeout: 10m, sweep_every: 5s}
                """);

        Plans plans = c.catalog().plans();
        assertThat(plans.find("pro")).contains(new Plan("pro", List.of("m1"), OptionalInt.of(60), OptionalLong.of(2_000_000)));
        assertThat(plans.find("team")).contains(Plan.of("team", List.of()));
        var m1 = c.catalog().resolve("m1").orElseThrow();
        var m2 = c.catalog().resolve("m2").orElseThrow();
        assertThat(m1.payAsYouGo()).isTrue();
        assertThat(m2.payAsYouGo()).isFalse();
        assertThat(plans.access("pro", m1)).isEqualTo(Plans.Access.COVERED);
        assertThat(plans.access("team", m2)).isEqualTo(Plans.Access.COVERED);
        assertThat(plans.access("team", m1)).isEqualTo(Plans.Access.PAY_AS_YOU_GO);
        assertThat(plans.access("pro", m2)).isEqualTo(Plans.Access.NOT_IN_PLAN);
        assertThat(plans.access("payg", m2)).isEqualTo(Plans.Access.NEEDS_SUBSCRIPTION);
        assertThat(plans.access("retired-plan", m2)).as("a plan no longer configured is no plan")
                .isEqualTo(Plans.Access.NEEDS_SUBSCRIPTION);
        assertThat(c.billing()).isEqualTo(new BillingSettings(Duration.ofMinutes(10), Duration.ofSeconds(5)));
    }

    @Test
    void withoutPlansOrBillingEveryoneIsPayAsYouGoWithDefaultHolds() {
        GatewayConfig c = ConfigSupport.parse(ConfigSupport.BASE);

        assertThat(c.catalog().plans().all()).isEmpty();
        assertThat(c.billing()).isEqualTo(BillingSettings.DEFAULT);
    }

    @Test
    void mistakesInPlansAreReportedWithTheirPlace() {
        List<ConfigProblem> problems = ConfigSupport.problems(MODELS + """
                plans:
                  payg: {}
                  pro: {models: [m9], rpm: 0, colour: red}
                billing: {hold_timeout: soon}
                """);

        assertThat(problems).extracting(ConfigProblem::message).anySatisfy(m -> assertThat(m).contains("'payg' is pay-as-you-go"))
                .anySatisfy(m -> assertThat(m).contains("'m9'").contains("not a configured model"))
                .anySatisfy(m -> assertThat(m).contains("rpm"))
                .anySatisfy(m -> assertThat(m).contains("colour"))
                .anySatisfy(m -> assertThat(m).contains("hold_timeout").contains("positive duration"))
                .anySatisfy(m -> assertThat(m).contains("model 'm2' names plan 'team', which is not declared"));
    }
}
