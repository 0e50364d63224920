package dev.switchboard.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.server.StartupException;
import dev.switchboard.wire.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI twins of the admin API as an operator meets them: help everywhere, one database wherever they run. */
class CliCommandsTest {
    @TempDir
    Path home;

    private Map<String, String> env() {
        return Map.of(Cli.HOME_VARIABLE, home.toString());
    }

    @Test
    void everyCommandAnswersHelp() {
        List<List<String>> paths = new ArrayList<>();
        collect(Cli.commandLine(Map.of()), new ArrayList<>(), paths);
        assertThat(paths).extracting(p -> String.join(" ", p))
                .contains("", "serve", "users", "users list", "users create", "users show", "users credit",
                        "keys", "keys list", "keys create", "keys update", "keys revoke");

        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            CliRun run = CliRun.of(Map.of(), args.toArray(String[]::new));
            assertThat(run.exitCode()).as("%s --help", path).isZero();
            assertThat(run.out()).as("%s --help", path).startsWith("Usage: switchboard");
        }
    }

    private static void collect(CommandLine cl, List<String> prefix, List<List<String>> out) {
        out.add(List.copyOf(prefix));
        cl.getSubcommands().forEach((name, sub) -> {
            List<String> p = new ArrayList<>(prefix);
            p.add(name);
            collect(sub, p, out);
        });
    }

    @Test
    void readCommandsRefuseToCreateAFreshDatabase() {
        CliRun run = CliRun.of(env(), "users", "list");

        assertThat(run.exitCode()).isEqualTo(StartupException.DATABASE);
        assertThat(run.err()).contains(home.resolve("data/switchboard.db").toString()).contains("no database");
        assertThat(home.resolve("data/switchboard.db")).doesNotExist();
        assertThat(CliRun.of(env(), "keys", "list", "usr_x").exitCode()).isEqualTo(StartupException.DATABASE);
        assertThat(home.resolve("data")).doesNotExist();
    }

    @Test
    void usersAndKeysAreListedFromTheDatabaseUnderTheSwitchboardHome() {
        CliRun created = CliRun.of(env(), "users", "create", "--name", "alice", "--balance-usd", "5");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String userId = Json.parse(created.out()).path("id").asText();
        assertThat(home.resolve("data/switchboard.db")).as("relative sqlite path resolved against SWITCHBOARD_HOME").exists();

        CliRun key = CliRun.of(env(), "keys", "create", userId, "--name", "ci");
        assertThat(key.exitCode()).as(key.err()).isZero();
        String secret = Json.parse(key.out()).path("key").asText();

        JsonNode users = Json.parse(CliRun.of(env(), "users", "list").out());
        assertThat(users.path("users")).extracting(u -> u.path("name").asText()).containsExactly("alice");
        assertThat(users.path("total").asLong()).isEqualTo(1);

        CliRun keys = CliRun.of(env(), "keys", "list", userId);
        assertThat(keys.exitCode()).isZero();
        JsonNode listed = Json.parse(keys.out()).path("keys");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).path("name").asText()).isEqualTo("ci");
        assertThat(keys.out()).doesNotContain(secret).contains(listed.get(0).path("prefix").asText());

        CliRun byName = CliRun.of(env(), "keys", "create", "alice", "--key-only");
        assertThat(byName.exitCode()).as(byName.err()).isZero();
        assertThat(byName.out().strip()).as("only the key, for KEY=$(...)").matches("sk-sb-[A-Za-z0-9_-]{40,}");
        assertThat(Json.parse(CliRun.of(env(), "keys", "list", "alice").out()).path("keys")).hasSize(2);
    }

    @Test
    void extendImportAndExportAnswerOnTheCommandLinesWriters() throws Exception {
        Path seed = home.resolve("catalog.yaml");
        Files.writeString(seed, "skills:\n  - id: cli-skill\n    name: From the CLI\n    description: imported\n"
                + "    tags: [cli]\n    body: {system_prompt: Hello}\n");

        CliRun imported = CliRun.of(env(), "extend", "import", seed.toString());
        assertThat(imported.exitCode()).as(imported.err()).isZero();
        assertThat(Json.parse(imported.out()).path("written").path("skills").asInt()).isEqualTo(1);

        CliRun exported = CliRun.of(env(), "extend", "export", "--format", "json");
        assertThat(exported.exitCode()).as(exported.err()).isZero();
        assertThat(Json.parse(exported.out()).path("skills").findValuesAsText("id")).contains("cli-skill");

        CliRun badMode = CliRun.of(env(), "extend", "import", seed.toString(), "--mode", "merge");
        assertThat(badMode.exitCode()).isEqualTo(1);
        assertThat(badMode.out()).isEmpty();
        assertThat(badMode.err().strip()).isEqualTo("error: --mode must be replace or keep");
    }

    @Test
    void unknownUserIsARefusalNotACrash() {
        assertThat(CliRun.of(env(), "users", "create", "--name", "bob").exitCode()).isZero();

        CliRun run = CliRun.of(env(), "keys", "list", "usr_nobody");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().strip()).startsWith("error: ").doesNotContain("Exception");
    }
}
