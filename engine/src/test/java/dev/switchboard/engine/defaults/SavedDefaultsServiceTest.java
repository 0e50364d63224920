package dev.switchboard.engine.defaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.model.GatewayException;
import dev.switchboard.wire.Json;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SavedDefaultsServiceTest {
    /** A map-backed store, enough for the service's rules; the JDBC stores have their own contract tests. */
    static final class MapStore implements DefaultsStore {
        final Map<String, StoredDefaults> rows = new HashMap<>();

        @Override
        public void put(StoredDefaults d) {
            rows.put(d.userId() + "/" + d.modelId(), d);
        }

        @Override
        public Optional<StoredDefaults> find(String userId, String modelId) {
            return Optional.ofNullable(rows.get(userId + "/" + modelId));
        }

        @Override
        public List<StoredDefaults> listFor(String userId) {
            return rows.values().stream().filter(d -> d.userId().equals(userId))
                    .sorted(java.util.Comparator.comparing(StoredDefaults::modelId)).toList();
        }

        @Override
        public boolean delete(String userId, String modelId) {
            return rows.remove(userId + "/" + modelId) != null;
        }
    }

    private final MapStore store = new MapStore();
    private final Catalog catalog = new Catalog(
            List.of(new ProviderConfig("p", ProviderType.SIMULATOR, URI.create("http://127.0.0.1:1"), List.of(),
                    Timeouts.DEFAULT, Map.of())),
            List.of(new ModelEntry("chat-real", List.of("chat-alias"), Optional.empty(), "t", 8000, 1000,
                    Capabilities.TEXT_ONLY, ReasoningProfile.NONE, Pricing.FREE, List.of(), List.of(new RouteTarget("p", "u")))));
    private final Clock clock = Clock.fixed(Instant.parse("2026-05-01T12:00:00Z"), ZoneOffset.UTC);
    private final SavedDefaultsService defaults = new SavedDefaultsService(store, "usr_1"::equals, catalog, clock);

    @Test
    void savedUnderTheCanonicalIdWhateverAliasNamedIt() {
        StoredDefaults saved = defaults.save("usr_1", "chat-alias", Json.parse("{\"temperature\": 0.3, \"top_k\": null}"));

        assertThat(saved.modelId()).isEqualTo("chat-real");
        assertThat(saved.paramsJson()).isEqualTo("{\"temperature\":0.3}");
        assertThat(saved.updatedAt()).isEqualTo(clock.instant());
        assertThat(defaults.get("usr_1", "chat-real")).contains(saved);
        assertThat(defaults.lookup().find("usr_1", "chat-real").orElseThrow().sampling().temperature()).contains(0.3);
    }

    @Test
    void aSecondSaveReplacesTheFirst() {
        defaults.save("usr_1", "chat-real", Json.parse("{\"temperature\": 0.3, \"max_tokens\": 5}"));
        defaults.save("usr_1", "chat-real", Json.parse("{\"top_p\": 0.5}"));
        assertThat(defaults.get("usr_1", "chat-alias").orElseThrow().paramsJson()).isEqualTo("{\"top_p\":0.5}");
    }

    @Test
    void clearRemovesThem() {
        defaults.save("usr_1", "chat-real", Json.parse("{\"temperature\": 0.3}"));
        assertThat(defaults.clear("usr_1", "chat-alias")).isEqualTo(new SavedDefaultsService.Cleared("usr_1", "chat-real", true));
        assertThat(defaults.clear("usr_1", "chat-alias").removed()).isFalse();
        assertThat(defaults.get("usr_1", "chat-real")).isEmpty();
        assertThat(defaults.lookup().find("usr_1", "chat-real")).isEmpty();
    }

    @Test
    void unknownUserOrModelIs404AndInvalidParamsAre400BeforeAnythingIsStored() {
        assertThatThrownBy(() -> defaults.save("usr_404", "chat-real", Json.parse("{}")))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().status()).isEqualTo(404));
        assertThatThrownBy(() -> defaults.get("usr_1", "no-such-model"))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(404);
                    assertThat(e.error().type()).isEqualTo("model_not_found");
                });
        assertThatThrownBy(() -> defaults.save("usr_1", "chat-real", Json.parse("{\"temperature\": 9}")))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().param()).contains("temperature"));
        assertThat(store.rows).isEmpty();
    }
}
