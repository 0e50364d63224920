package dev.switchboard.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.server.config.GatewayConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up banner shows what a first start created (admin key, demo key, demo password) once, and only then. */
class ServeBannerTest {
    @TempDir
    Path dir;

    @Test
    void aFirstStartShowsItsSecretsAndALaterStartShowsNone() {
        GatewayConfig config = ConfigLoader.embeddedDefault(Map.of("SWITCHBOARD_DATABASE", "sqlite:" + dir.resolve("sb.db")));

        String first;
        try (GatewayApp app = GatewayApp.start(config, 0)) {
            GatewayApp.FirstStart created = app.firstStart();
            assertThat(created.createdKeys()).isTrue();
            first = banner(app);
            assertThat(first).contains("First start.", "  admin key: " + created.adminKey().orElseThrow(),
                    "  demo key:  " + created.demoKey().orElseThrow().secret(),
                    "password: " + created.demoPassword().orElseThrow(),
                    "-H 'Authorization: Bearer " + created.demoKey().orElseThrow().secret() + "'");
        }
        try (GatewayApp app = GatewayApp.start(config, 0)) {
            assertThat(app.firstStart()).isEqualTo(new GatewayApp.FirstStart(Optional.empty(), Optional.empty(), Optional.empty()));
            String later = banner(app);
            assertThat(later).doesNotContain("First start.", "admin key:", "demo key:", "password: ")
                    .contains("sign in with your user");
        }
    }

    private static String banner(GatewayApp app) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ServeCommand.banner(new PrintStream(out, true, StandardCharsets.UTF_8), app);
        return out.toString(StandardCharsets.UTF_8);
    }
}
