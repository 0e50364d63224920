package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;

/** The refusals every part of the catalog words the same way. */
final class Refusals {
    private Refusals() {
    }

    /** 404, the same whether the entry does not exist or is someone else's private skill. */
    static GatewayException notFound(ItemKind kind, String id) {
        String shown = id.length() > 80 ? id.substring(0, 80) + "..." : id;
        return GatewayError.notFound("No " + kind.noun() + " with id '" + shown + "'.").toException();
    }

    static GatewayException conflict(String field, String message) {
        return new GatewayError(409, "conflict", message, java.util.Optional.of(field), false).toException();
    }
}
