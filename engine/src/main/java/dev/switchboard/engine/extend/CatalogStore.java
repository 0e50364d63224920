package dev.switchboard.engine.extend;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The storage port of the catalog: entries of every kind, their tags, likes and counts, and plugin artifacts.
 * Shared by every gateway instance (one database): each method is atomic on its own, and counts are changed
 * by conditional updates in the database, never read-modify-write in Java, so concurrent likes, uses, forks
 * and interactions are never lost. Failures of the storage itself are unchecked exceptions.
 */
public interface CatalogStore {

    /** What {@link #save} does when an entry with the same kind and id exists. */
    enum OnConflict {
        /** Leave the existing entry as it is (first-start loading, safe to run on several instances at once). */
        KEEP,
        /** Replace what can be written (text, tags, body, flags); counts, owner, fork origin and creation time stay. */
        REPLACE
    }

    /** Who a list is for. */
    sealed interface Audience {
        /** Anyone: public entries only (plugins only with an artifact). */
        record Listed() implements Audience {
        }

        /** One user's own entries, whatever their visibility. */
        record OwnedBy(String userId) implements Audience {
        }

        /** The operator: every entry. */
        record Operator() implements Audience {
        }
    }

    Audience LISTED = new Audience.Listed();
    Audience OPERATOR = new Audience.Operator();

    /** What {@link #attachArtifact} did. */
    enum Attached {
        ATTACHED, NO_SUCH_PLUGIN, FILE_NAME_TAKEN
    }

    /** An artifact's description and bytes. */
    record StoredArtifact(Artifact artifact, byte[] content) {
    }

    /**
     * Saves an entry (and its tags). A skill with an owner must name an existing user.
     *
     * @return whether anything was written (false only for KEEP on an existing entry)
     */
    boolean save(CatalogItem item, OnConflict onConflict);

    Optional<CatalogItem> find(ItemKind kind, String id);

    /** The entries with these ids that exist, in no particular order. */
    List<CatalogItem> findAll(ItemKind kind, Collection<String> ids);

    /** The entries of {@code kind} that {@code audience} may list and {@code query} selects, one page of them. */
    Page<CatalogItem> list(ItemKind kind, Audience audience, ListQuery query);

    /**
     * Tags of listed entries of {@code kind} with how many carry each, most used first (then alphabetical);
     * only tags containing {@code search} (lower-cased) when given.
     */
    List<TagCount> tags(ItemKind kind, Optional<String> search, int limit);

    /** Deletes the entry with its tags, likes and installations; whether it existed. */
    boolean delete(ItemKind kind, String id);

    /**
     * Records that {@code userId} likes the entry; a second like by the same user changes nothing.
     *
     * @return the entry's likes afterwards; empty when there is no such entry
     */
    OptionalLong like(ItemKind kind, String id, String userId, Instant at);

    /** Takes a like back; idempotent. The likes afterwards, empty when there is no such entry. */
    OptionalLong unlike(ItemKind kind, String id, String userId);

    /** Which of {@code ids} the user likes. */
    Set<String> likedBy(String userId, ItemKind kind, Collection<String> ids);

    /** Counts one interaction with a character: the count afterwards, empty when there is no such character. */
    OptionalLong interact(String characterId);

    /** Stores {@code content} (described by {@code artifact}) as the plugin's artifact, replacing an earlier one. */
    Attached attachArtifact(String pluginId, Artifact artifact, byte[] content, Instant at);

    /** The artifact served under {@code fileName} (exact match), with its bytes. */
    Optional<StoredArtifact> artifact(String fileName);

    /** Sets the one-time marker {@code name}; true for the call that set it, false when it was set already. */
    boolean mark(String name, Instant at);

    boolean marked(String name);
}
