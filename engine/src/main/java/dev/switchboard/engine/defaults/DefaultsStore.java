package dev.switchboard.engine.defaults;

import java.util.List;
import java.util.Optional;

/**
 * The storage port for saved per-model defaults, keyed by (user id, model id). Shared by every gateway
 * instance: each method is atomic, and a read sees every write committed before it started (nothing is
 * cached). Storage failures surface as unchecked exceptions of the implementation.
 */
public interface DefaultsStore {

    /** Saves or replaces the defaults of {@code defaults.userId()} for {@code defaults.modelId()}; the user must exist. */
    void put(StoredDefaults defaults);

    /** The saved defaults, if any. */
    Optional<StoredDefaults> find(String userId, String modelId);

    /** Every model's saved defaults of {@code userId}, by model id (the dashboard's list). */
    List<StoredDefaults> listFor(String userId);

    /** Removes them; whether there were any. */
    boolean delete(String userId, String modelId);
}
