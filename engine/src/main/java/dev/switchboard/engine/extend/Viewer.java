package dev.switchboard.engine.extend;

import java.util.Objects;

/** The signed-in user a catalog write or a personal read is done for (from a dashboard session). */
public record Viewer(String userId, String username) {
    public Viewer {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(username, "username");
    }
}
