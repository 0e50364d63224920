package dev.switchboard.server.config;

import dev.switchboard.server.config.YamlNode.Pos;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one namespace that model ids and aliases share (a request names either), so that every name
 * resolves to exactly one model. Remembers who took each name, and where, to explain a collision.
 */
final class Namespace {
    private record Owner(String description, Pos pos) {
    }

    private final Map<String, Owner> names = new HashMap<>();

    boolean taken(String name) {
        return names.containsKey(name);
    }

    void addId(String id, Pos pos) {
        names.putIfAbsent(id, new Owner("model id '" + id + "'", pos));
    }

    /** Claims {@code alias} for {@code modelId}; when it is taken, says by whom (for the problem message). */
    Optional<String> claimAlias(String alias, String modelId, Pos pos) {
        Owner owner = names.get(alias);
        if (owner == null) {
            names.put(alias, new Owner("alias '" + alias + "' of model '" + modelId + "'", pos));
            return Optional.empty();
        }
        String where = owner.pos().source().equals(pos.source()) ? "line " + owner.pos().line()
                : owner.pos().source() + ":" + owner.pos().line();
        return Optional.of(owner.description() + " (" + where + ")");
    }
}
