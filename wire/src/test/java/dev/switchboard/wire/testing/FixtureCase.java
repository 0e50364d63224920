package dev.switchboard.wire.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.wire.Json;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One fixture case: its directory under {@code fixtures/<format>/} and the settings of its optional
 * {@code case.json} (an empty object without one).
 */
public record FixtureCase(Path dir, JsonNode config) {
    /** No case: default settings, for tests that use a format's translations outside the fixtures. */
    public static final FixtureCase NONE = new FixtureCase(Path.of("no-case"), Json.object());

    public String name() {
        return dir.getFileName().toString();
    }

    public Path file(String name) {
        return dir.resolve(name);
    }

    public boolean has(String name) {
        return Files.exists(file(name));
    }
}
