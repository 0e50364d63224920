package dev.switchboard.testkit.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gateway as a real operating-system process ({@code java ... dev.switchboard.server.Main --config FILE}), as
 * an operator runs it: started, killed with SIGKILL ({@code kill -9}) and started again on the same port and
 * database, or stopped with SIGTERM ({@link #terminate}) and its exit status read. Its output goes to one log file
 * across restarts. Also samples the process's resources: heap after a
 * full GC ({@code jcmd}), threads and open file descriptors ({@code /proc}).
 */
final class GatewayProcess implements AutoCloseable {
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private final Path config;
    private final Path log;
    private final String baseUrl;
    private final Map<String, String> env;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private int starts;

    GatewayProcess(Path config, Path log, int port, Map<String, String> env) {
        this.config = config;
        this.log = log;
        this.baseUrl = "http://127.0.0.1:" + port;
        this.env = Map.copyOf(env);
    }

    String baseUrl() {
        return baseUrl;
    }

    int starts() {
        return starts;
    }

    long pid() {
        return process.pid();
    }

    /** Starts the process and waits until {@code /ready} answers 200 (at most 120 s). */
    void start() {
        launch();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the gateway process ended at start-up; see " + log);
            }
            if (status("/ready") == 200) {
                return;
            }
            sleep(100);
        }
        throw new IllegalStateException("the gateway did not get ready within 120 s; see " + log);
    }

    /** Starts the process and returns at once (it may not listen yet). */
    void launch() {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseG1GC"));
        Path jar = Path.of("..", "server", "target", "switchboard.jar");
        if (Files.isRegularFile(jar)) {
            // the jar operators run, with its own logging configuration
            command.addAll(List.of("-jar", jar.toString()));
        } else {
            // the tests' class path holds logback-test.xml, which the gateway's logging defers to
            command.addAll(List.of("-cp", System.getProperty("surefire.test.class.path",
                    System.getProperty("java.class.path")), "dev.switchboard.server.Main"));
        }
        command.addAll(List.of("--config", config.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the gateway process", e);
        }
        starts++;
    }

    /** {@code kill -9}: no shutdown hook, no flush, no goodbye. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGTERM, as an orchestrator stops a process; returns at once (see {@link #awaitExit}). */
    void terminate() {
        process.destroy();
    }

    /** The exit status, once the process ended within {@code within}; empty when it still runs. */
    java.util.OptionalInt awaitExit(Duration within) {
        try {
            return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS) ? java.util.OptionalInt.of(process.exitValue())
                    : java.util.OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.OptionalInt.empty();
        }
    }

    int status(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    String get(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /**
     * The process's heap after a full GC (KB), threads and open file descriptors right now, and its TCP sockets
     * by peer port ({@code sockets}: e.g. {@code {40683 in=32, 39011=12}}).
     */
    record Resources(long heapKb, long threads, long fds, Map<String, Integer> sockets) {
        @Override
        public String toString() {
            return "heap " + heapKb / 1024 + " MB, " + threads + " threads, " + fds + " fds " + sockets;
        }
    }

    Resources sample() {
        long pid = process.pid();
        String java = ProcessHandle.current().info().command().orElse("java");
        Path jcmd = Path.of(java).resolveSibling("jcmd");
        jcmd(jcmd, pid, "GC.run");
        String heap = jcmd(jcmd, pid, "GC.heap_info");
        Matcher m = HEAP_USED.matcher(heap);
        long heapKb = m.find() ? Long.parseLong(m.group(1)) : -1;
        long threads = -1;
        long fds = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Threads:")) {
                    threads = Long.parseLong(line.substring(8).strip());
                }
            }
            try (var list = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                fds = list.count();
            }
        } catch (IOException e) {
            // not Linux: reported as -1, not judged
        }
        return new Resources(heapKb, threads, fds, sockets(pid));
    }

    /** The process's TCP sockets, counted by their peer: {@code in} for accepted ones, else the remote port. */
    private Map<String, Integer> sockets(long pid) {
        java.util.Set<String> inodes = new java.util.HashSet<>();
        java.util.Map<String, Integer> out = new java.util.TreeMap<>();
        try (var list = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            list.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            });
            int own = Integer.parseInt(baseUrl.substring(baseUrl.lastIndexOf(':') + 1));
            for (String table : List.of("tcp", "tcp6")) {
                for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/net/" + table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length < 10 || !inodes.contains(f[9])) {
                        continue;
                    }
                    int local = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16);
                    int remote = Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16);
                    String state = switch (f[3]) {
                        case "01" -> "";
                        case "0A" -> "listen";
                        case "08" -> " close-wait";
                        default -> " st" + f[3];
                    };
                    String key = local == own ? (state.equals("listen") ? "listen" : "in" + state) : remote + state;
                    out.merge(key, 1, Integer::sum);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone: no breakdown
        }
        return out;
    }

    private static String jcmd(Path jcmd, long pid, String what) {
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), what).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    Optional<Process> process() {
        return Optional.ofNullable(process);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Stops the process (gracefully, then by force). */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
