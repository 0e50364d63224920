package dev.switchboard.engine.responses;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The storage port for stored responses. Implementations are shared by every gateway instance, so each
 * method is atomic on its own and sees everything committed before it started.
 *
 * <p>Visibility: a response is visible only to its owner and only until it is deleted; every lookup
 * takes the owner and treats another user's response exactly like a missing one. Deletion hides a
 * response at once; its content is erased as soon as no other stored response continues from it, so
 * deleting a turn never breaks the later turns of its conversation, and deleting those later turns
 * erases the earlier hidden ones too. Failures of the storage itself surface as unchecked exceptions of
 * the implementation.
 */
public interface ResponseStore {

    /**
     * Saves a new response. Its {@code previousId}, when present, names a response stored earlier by the
     * same owner (it may have been deleted since, but not erased).
     */
    void save(StoredResponse response);

    /** The owner's visible response with this id. */
    Optional<StoredResponse> find(String ownerId, String id);

    /**
     * The owner's visible response {@code id} and every response it continues, oldest first (the
     * earlier ones may be hidden by deletion); empty when {@code id} is not visible to the owner.
     */
    List<StoredResponse> chain(String ownerId, String id);

    /**
     * Hides the owner's response as of {@code at} and erases what no stored response needs any more.
     *
     * @return whether the response was visible to the owner
     */
    boolean delete(String ownerId, String id, Instant at);
}
