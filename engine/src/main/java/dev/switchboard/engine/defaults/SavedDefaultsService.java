package dev.switchboard.engine.defaults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.cache.ExpiringCache;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The service behind saved per-model default parameters per user: saving, reading and clearing them (the admin
 * API's {@code /users/{id}/defaults/{model}}), and their cached lookup by the chat pipeline. A model may be named by an alias; defaults are always stored under
 * the canonical model id, so every alias of a model shares them.
 */
public final class SavedDefaultsService {
    /** Finds the defaults the pipeline should apply; {@link #NONE} finds none. */
    @FunctionalInterface
    public interface Lookup {
        Lookup NONE = (userId, modelId) -> Optional.empty();

        /** The saved defaults of {@code userId} for the canonical {@code modelId}, parsed. */
        Optional<DefaultParams> find(String userId, String modelId);
    }

    /**
     * How long the pipeline reuses a lookup: every chat request would otherwise cost a store query. Saving
     * or clearing through this instance takes effect here at once; other instances see it within this time.
     */
    public static final Duration CACHE_TTL = Duration.ofSeconds(1);
    private static final int CACHE_MAX = 10_000;

    private final ExpiringCache<String, Optional<DefaultParams>> cache;
    private final DefaultsStore store;
    private final Predicate<String> userExists;
    private final Catalog catalog;
    private final Clock clock;

    /**
     * @param userExists whether a user id names a user (the account store's {@code findUser(id).isPresent()})
     */
    public SavedDefaultsService(DefaultsStore store, Predicate<String> userExists, Catalog catalog, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.userExists = Objects.requireNonNull(userExists, "userExists");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.cache = new ExpiringCache<>(clock, CACHE_TTL, CACHE_MAX);
    }

    /**
     * Validates and saves (replacing earlier ones) the defaults of a user for a model.
     *
     * @throws dev.switchboard.model.GatewayException 404 for an unknown user or model, 400 naming the field
     *         for an invalid parameter
     */
    public StoredDefaults save(String userId, String model, JsonNode params) {
        ModelEntry m = model(userId, model);
        DefaultParams.parse(params);
        ObjectNode kept = Json.object();
        // a null means "not set", as in a request: not worth storing
        params.properties().forEach(e -> {
            if (!e.getValue().isNull()) {
                kept.set(e.getKey(), e.getValue());
            }
        });
        StoredDefaults saved = new StoredDefaults(userId, m.id(), Json.write(kept), clock.instant());
        store.put(saved);
        cache.forget(key(userId, m.id()));
        return saved;
    }

    /** The saved defaults; 404 for an unknown user or model. */
    public Optional<StoredDefaults> get(String userId, String model) {
        return store.find(userId, model(userId, model).id());
    }

    /** Every saved record of a user, by model id; 404 for an unknown user. */
    public List<StoredDefaults> list(String userId) {
        if (!userExists.test(userId)) {
            throw GatewayError.notFound("No user with id '" + userId + "'.").toException();
        }
        return store.listFor(userId);
    }

    /** What {@link #clear} did: the canonical model id, and whether there were defaults to remove. */
    public record Cleared(String userId, String modelId, boolean removed) {
    }

    /** Removes the saved defaults. 404 for an unknown user or model. */
    public Cleared clear(String userId, String model) {
        String id = model(userId, model).id();
        boolean removed = store.delete(userId, id);
        cache.forget(key(userId, id));
        return new Cleared(userId, id, removed);
    }

    /** The lookup the pipeline uses. */
    public Lookup lookup() {
        return (userId, modelId) -> cache.get(key(userId, modelId),
                k -> store.find(userId, modelId).map(s -> DefaultParams.parseStored(s.paramsJson())));
    }

    private static String key(String userId, String modelId) {
        return userId + '\n' + modelId;
    }

    private ModelEntry model(String userId, String model) {
        if (!userExists.test(userId)) {
            throw GatewayError.notFound("No user with id '" + userId + "'.").toException();
        }
        return catalog.resolve(model).orElseThrow(() -> GatewayError.modelNotFound(model).toException());
    }
}
