package dev.switchboard.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.server.StartupException;
import dev.switchboard.store.Database;
import dev.switchboard.store.JdbcAccountStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway that cannot start says why in one line on stderr and exits with a status that tells the cause
 * apart (config 2, listen 3, database 4): never a stack trace, a hang, or a banner for a port it does not hold.
 */
class StartupFailureTest {
    @TempDir
    Path dir;

    private Path config(String database, int port) throws IOException {
        Path file = dir.resolve("switchboard.yaml");
        Files.writeString(file, """
                listen: 127.0.0.1:%d
                database: %s
                providers:
                  sim: {type: simulator}
                models:
                  m1: {context_length: 1000, max_output_tokens: 100, pricing: {input: 0, output: 0}, route: [{provider: sim}]}
                """.formatted(port, database));
        return file;
    }

    private static void assertOneClearLine(CliRun run) {
        assertThat(run.err().strip().lines()).as("stderr: %s", run.err()).hasSize(1);
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception").doesNotContain(":-1");
        assertThat(run.out()).as("no banner for a gateway that did not start").doesNotContain("listening");
    }

    @Test
    void portInUseNamesThePortAndTheListenSettingAndCreatesNoKeys() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.setReuseAddress(true);
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            Path db = dir.resolve("data/sb.db");

            CliRun run = CliRun.of(Map.of(), "--config", config("sqlite:" + db, port).toString());

            assertThat(run.exitCode()).isEqualTo(StartupException.LISTEN);
            assertOneClearLine(run);
            assertThat(run.err()).contains("127.0.0.1:" + port).contains("in use").contains("`listen`");
            try (Database d = Database.open("sqlite:" + db)) {
                assertThat(new JdbcAccountStore(d).hasUsers()).as("no demo user (and key) created and lost").isFalse();
                assertThat(new JdbcAccountStore(d).adminKeyHash()).as("no admin key created and lost").isEmpty();
            }
        }
    }

    @Test
    void unreachableDatabaseIsExit4NamingTheDatabaseSetting() throws IOException {
        CliRun run = CliRun.of(Map.of(), "--config", config("postgresql://postgres@127.0.0.1:1/none", 0).toString());

        assertThat(run.exitCode()).isEqualTo(StartupException.DATABASE);
        assertOneClearLine(run);
        assertThat(run.err()).contains("postgresql://postgres@127.0.0.1:1/none").contains("`database`");
    }

    @Test
    void dataDirectoryThatCannotBeCreatedIsExit4NamingIt() throws IOException {
        Files.writeString(dir.resolve("blocker"), "a file where the data directory should be");

        CliRun run = CliRun.of(Map.of(), "--config", config("sqlite:" + dir.resolve("blocker/sb.db"), 0).toString());

        assertThat(run.exitCode()).isEqualTo(StartupException.DATABASE);
        assertOneClearLine(run);
        assertThat(run.err()).contains(dir.resolve("blocker").toString()).contains("not a directory");
    }

    @Test
    void unreadableConfigIsExit2InOneLine() {
        CliRun run = CliRun.of(Map.of(), "--config", dir.toString());

        assertThat(run.exitCode()).isEqualTo(StartupException.CONFIG);
        assertOneClearLine(run);
        assertThat(run.err()).contains(dir.toString()).contains("directory");
    }

    @Test
    void missingConfigIsExit2InOneLine() {
        CliRun run = CliRun.of(Map.of(), "--config", dir.resolve("nope.yaml").toString());

        assertThat(run.exitCode()).isEqualTo(StartupException.CONFIG);
        assertOneClearLine(run);
        assertThat(run.err()).contains("not found");
    }
}
