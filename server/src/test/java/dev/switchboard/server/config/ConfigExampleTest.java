package dev.switchboard.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code docs/config.example.yaml} is loaded as it is shipped, so that it can never drift from what the loader accepts. */
class ConfigExampleTest {

    static Path example() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path candidate = dir.resolve("docs/config.example.yaml");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
            dir = dir.getParent();
        }
        throw new AssertionError("docs/config.example.yaml not found above " + Path.of("").toAbsolutePath());
    }

    @Test
    void theExampleLoads() {
        GatewayConfig c = ConfigLoader.load(example(), ConfigSupport.ALL_KEYS);

        assertThat(c.listen()).isEqualTo(ListenAddress.DEFAULT);
        assertThat(c.database()).isEqualTo("sqlite:data/switchboard.db");
        assertThat(c.redis()).isEmpty();
        assertThat(c.adminKey()).isEmpty();
        assertThat(c.catalog().provider("anthropic").orElseThrow().timeouts()).isEqualTo(new Timeouts(Duration.ofSeconds(10),
                Duration.ofSeconds(120), Duration.ofSeconds(90), Duration.ofMinutes(30)));
        assertThat(c.catalog().provider("openrouter").orElseThrow().headers()).containsKeys("HTTP-Referer", "X-Title");

        ModelEntry sonnet = c.catalog().resolve("claude-3-7-sonnet-latest").orElseThrow();
        assertThat(sonnet.displayName()).contains("Claude Sonnet 4 (EU contract)");
        assertThat(sonnet.plans()).containsExactly("team");
        assertThat(sonnet.payAsYouGo()).isTrue();
        assertThat(c.catalog().plans().find("pro").orElseThrow().rpm()).hasValue(120);
        assertThat(c.catalog().plans().covering(c.catalog().resolve("house-mini").orElseThrow())).containsExactly("pro");

        ModelEntry mini = c.catalog().resolve("house-mini").orElseThrow();
        assertThat(mini.contextLength()).isEqualTo(128_000);
        assertThat(mini.capabilities().supportsJson()).isTrue();
        assertThat(mini.ownedBy()).isEqualTo("openai");
        assertThat(mini.pricing()).isEqualTo(new Pricing(150_000_000L, 600_000_000L, 15_000_000L, 187_500_000L, 300_000_000L));
        assertThat(mini.route()).containsExactly(new RouteTarget("openai", "gpt-4o-mini"), new RouteTarget("simulator", "house-mini"));

        assertThat(c.dashboard()).isEqualTo(DashboardConfig.DEFAULT);
        assertThat(c.starterCatalog()).isTrue();

        // The shipped catalog is included, under the operator's own entries.
        assertThat(c.catalog().resolve("gpt-5")).isPresent();
        assertThat(c.catalog().models()).filteredOn(m -> m.id().equals("claude-sonnet-4")).hasSize(1);
    }

    @Test
    void theExampleShowsEveryKeyTheLoaderAccepts() throws IOException {
        YamlNode.Mapping root = YamlReader.read(Files.readString(example()), "example", new Problems());
        Set<String> written = new HashSet<>();
        collectKeys(root, written);

        List<String> accepted = Stream.of(ConfigBinder.TOP_KEYS, ProviderBinder.KEYS, ProviderBinder.TIMEOUT_KEYS, ModelBinder.KEYS,
                ModelBinder.REASONING_KEYS, ModelBinder.BUDGET_KEYS, ModelBinder.SOURCE_KEYS, ModelBinder.PRICING_KEYS,
                ModelBinder.ROUTE_KEYS, TracingBinder.KEYS, LimitsBinder.KEYS).flatMap(List::stream).toList();
        assertThat(written).containsAll(accepted);
    }

    private static void collectKeys(YamlNode node, Set<String> out) {
        switch (node) {
            case YamlNode.Mapping m -> m.entries().forEach(e -> {
                out.add(e.key());
                collectKeys(e.value(), out);
            });
            case YamlNode.Sequence s -> s.items().forEach(i -> collectKeys(i, out));
            case YamlNode.Scalar ignored -> {
            }
        }
    }
}
