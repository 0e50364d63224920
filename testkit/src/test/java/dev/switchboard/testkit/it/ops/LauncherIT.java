package dev.switchboard.testkit.it.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher ({@code ./switchboard}) as a user runs it, on a copy of the repository's script and built jar: after a
 * first server run has recorded the JDK's ahead-of-time cache, a CLI command started from that cache still prints
 * nothing but its JSON on stdout and no JVM warning on stderr, so scripts can parse it and people are not alarmed; and a
 * first run that fails (a config error) leaves no cache of its few classes for later starts to use; and the heap starts
 * at the same size on every machine (the JVM's own choice grows with the machine's memory).
 * Starts real processes (a server, then a command), a few seconds each; the JVM writes the cache as the server stops.
 */
class LauncherIT {
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path home;

    @Test
    void aCommandStartedFromTheCachePrintsOnlyItsJsonOnStdout() throws Exception {
        Map<String, String> env = copyLauncher();
        // one model on a provider that is never called (the requests below carry no key, so none reaches it)
        Path config = config("providers:\n  local:\n    type: openai\n    base_url: http://127.0.0.1:9/v1\n"
                + "    keys: [\"sk-unused\"]\nmodels:\n  local-model:\n    context_length: 8000\n    max_output_tokens: 1000\n"
                + "    pricing: {input: 1, output: 2}\n    route: [{provider: local, model: m}]\n");

        Process server = start(env, "--config", config.toString());
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            CompletableFuture<String> listening = CompletableFuture.supplyAsync(() -> out.lines()
                    .filter(l -> l.startsWith("Switchboard listening on")).findFirst().orElse("ended without listening"));
            String banner = listening.get(3, TimeUnit.MINUTES);
            assertThat(banner).as(() -> read(home.resolve("server.err"))).startsWith("Switchboard listening on");
            // Some requests for the recording to see: a cache recorded from a start alone did not make JDK 25 warn
            // (of an adapter of its code cache it could not link) when a later start used it, one recorded after
            // requests did.
            URI base = URI.create(banner.split("\\s+")[3]);
            try (HttpClient http = HttpClient.newHttpClient()) {
                for (int i = 0; i < 20; i++) {
                    http.send(HttpRequest.newBuilder(base.resolve("/v1/models")).build(), HttpResponse.BodyHandlers.discarding());
                    http.send(HttpRequest.newBuilder(base.resolve("/v1/chat/completions"))
                            .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.discarding());
                }
            }
            server.destroy(); // SIGTERM: the JVM writes the cache as it exits
            assertThat(server.waitFor(2, TimeUnit.MINUTES)).isTrue();
        } finally {
            server.destroyForcibly();
        }
        assertThat(home.resolve("server/target/switchboard.aot")).as("the first server run recorded the cache")
                .isNotEmptyFile();

        Process command = start(env, "--config", config.toString(), "users", "create", "--name", "scripted",
                "--balance-usd", "5");
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(command.getErrorStream()));
        String stdout = read(command.getInputStream());
        assertThat(command.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(command.exitValue()).as(stderr.get()).isZero();
        assertThat(stdout.strip()).as("stdout holds the command's JSON and nothing else").startsWith("{").endsWith("}");
        JsonNode user = new ObjectMapper().readTree(stdout);
        assertThat(user.path("name").asText()).as("stdout is the user as JSON, nothing else:\n" + stdout)
                .isEqualTo("scripted");
        // nor on stderr: a start from the cache is quiet (JDK 25 warned of adapters it could not link on every start)
        assertThat(stderr.get()).as("the JVM's output on a start from the cache").doesNotContain("][warning]");
    }

    @Test
    void aFirstRunThatFailsLeavesNoCacheBehind() throws Exception {
        Map<String, String> env = copyLauncher();
        Path config = config("");

        Process server = start(env, "--config", config.toString());
        server.getInputStream().transferTo(OutputStream.nullOutputStream());
        assertThat(server.waitFor(2, TimeUnit.MINUTES)).isTrue();

        assertThat(server.exitValue()).as("a config without models is refused: " + read(home.resolve("server.err")))
                .isEqualTo(2);
        assertThat(home.resolve("server/target/switchboard.aot"))
                .as("no cache of a start that failed (the next run records one)").doesNotExist();
    }

    @Test
    void theHeapStartsAtTheSameSizeWhateverTheMachinesMemory() throws Exception {
        Map<String, String> env = copyLauncher();
        long mib = 1024 * 1024;
        // the default ceiling, one below the start, one above the default, and an operator's own -Xmx (left alone)
        assertThat(heapFlags(env, Map.of())).containsEntry("InitialHeapSize", 128 * mib).containsEntry("MaxHeapSize", 768 * mib);
        assertThat(heapFlags(env, Map.of("SWITCHBOARD_HEAP", "96m")))
                .containsEntry("InitialHeapSize", 96 * mib).containsEntry("MaxHeapSize", 96 * mib);
        assertThat(heapFlags(env, Map.of("SWITCHBOARD_HEAP", "2g")))
                .containsEntry("InitialHeapSize", 128 * mib).containsEntry("MaxHeapSize", 2048 * mib);
        assertThat(heapFlags(env, Map.of("SWITCHBOARD_JAVA_OPTS", "-Xmx300m"))).containsEntry("MaxHeapSize", 300 * mib);
    }

    /** The heap sizes the JVM started by the launcher ran with ({@code -XX:+PrintCommandLineFlags}), by flag name. */
    private Map<String, Long> heapFlags(Map<String, String> env, Map<String, String> more) throws Exception {
        Map<String, String> all = new HashMap<>(env);
        all.putAll(more);
        all.merge("SWITCHBOARD_JAVA_OPTS", "-XX:+PrintCommandLineFlags", (a, b) -> a + " " + b);
        Process version = start(all, "--version"); // its stderr goes to server.err
        String stdout = read(version.getInputStream());
        assertThat(version.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(version.exitValue()).as(() -> more + ": " + read(home.resolve("server.err"))).isZero();
        Map<String, Long> flags = new HashMap<>();
        for (String word : stdout.split("\\s+")) {
            if (word.startsWith("-XX:") && word.contains("HeapSize=")) {
                String[] kv = word.substring(4).split("=", 2);
                flags.put(kv[0], Long.parseLong(kv[1]));
            }
        }
        return flags;
    }

    /**
     * The launcher and jar side by side as in a checkout, without sources (so it never decides to rebuild); the
     * environment that runs it on this JDK.
     */
    private Map<String, String> copyLauncher() throws IOException {
        assumeTrue(Runtime.version().feature() >= 25, "the AOT cache needs JDK 25; this build runs on "
                + Runtime.version());
        Path jar = REPOSITORY.resolve("server/target/switchboard.jar");
        assertThat(jar).as("the gateway's jar is built before the integration tests (mvn verify)").isRegularFile();
        Files.createDirectories(home.resolve("server/target"));
        Files.copy(REPOSITORY.resolve("switchboard"), home.resolve("switchboard"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(jar, home.resolve("server/target/switchboard.jar"));
        return Map.of("JAVA_HOME", System.getProperty("java.home"), "SWITCHBOARD_HOME", home.toString());
    }

    /** A config listening on a free port with its database in the test's directory, then {@code rest}. */
    private Path config(String rest) throws IOException {
        Path config = home.resolve("config.yaml");
        Files.writeString(config, "listen: 127.0.0.1:0\ndatabase: sqlite:" + home.resolve("data/switchboard.db") + "\n"
                + rest);
        return config;
    }

    private Process start(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(args));
        command.addFirst(home.resolve("switchboard").toString());
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile());
        pb.environment().putAll(env);
        pb.environment().put("SWITCHBOARD_LOG_LEVEL", "WARN");
        if (args.length <= 2) {
            pb.redirectError(home.resolve("server.err").toFile());
        }
        return pb.start();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
