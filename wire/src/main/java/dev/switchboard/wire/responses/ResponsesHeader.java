package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * What a response object carries besides the answer: its id ({@code resp_...}), its creation time in
 * Unix seconds, and the request settings it echoes ({@link ResponsesRequest#echo()}).
 */
public record ResponsesHeader(String id, long createdAt, ObjectNode echo) {
    public ResponsesHeader {
        Objects.requireNonNull(id, "id");
        echo = echo.deepCopy();
    }

    @Override
    public ObjectNode echo() {
        return echo.deepCopy();
    }
}
