package dev.switchboard.testkit.agents;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One non-interactive run of a coding agent: started in its workspace with a private home and no input,
 * bounded by a generous deadline (then killed with its children), its output kept in files beside the
 * workspace.
 *
 * @param exitCode the process's exit code, or -1 when it was killed at the deadline
 * @param stdout   what it printed on standard output
 * @param stderr   what it printed on standard error
 */
record AgentRun(int exitCode, String stdout, String stderr) {
    /** Far above a normal run (seconds): only a hung agent reaches it. */
    static final Duration DEADLINE = Duration.ofMinutes(4);

    static AgentRun start(Path binaries, CodingAgent agent, CodingAgent.Workspace ws, CodingAgent.Launch launch) {
        List<String> command = new ArrayList<>();
        command.add(binaries.resolve(agent.binary()).toString());
        command.addAll(launch.arguments());
        ProcessBuilder pb = new ProcessBuilder(command).directory(ws.work().toFile());
        Map<String, String> env = pb.environment();
        String path = env.getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.clear();
        env.put("PATH", binaries + File.pathSeparator + path);
        env.put("HOME", ws.home().toString());
        env.put("XDG_CONFIG_HOME", ws.home().resolve(".config").toString());
        env.put("XDG_DATA_HOME", ws.home().resolve(".local/share").toString());
        env.put("XDG_CACHE_HOME", ws.home().resolve(".cache").toString());
        env.put("XDG_STATE_HOME", ws.home().resolve(".local/state").toString());
        env.put("TMPDIR", ws.root().toString());
        env.put("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        env.put("NO_COLOR", "1");
        env.put("CI", "true");
        env.putAll(launch.environment());
        Path out = ws.root().resolve("stdout.txt");
        Path err = ws.root().resolve("stderr.txt");
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        try {
            Process process = pb.start();
            int code;
            if (process.waitFor(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                code = process.exitValue();
            } else {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                code = -1;
            }
            return new AgentRun(code, Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + agent + " ran", e);
        }
    }

    /** The end of both outputs, for failure messages. */
    String tail() {
        return "--- stdout (end) ---\n" + end(stdout) + "\n--- stderr (end) ---\n" + end(stderr);
    }

    private static String end(String text) {
        return text.length() <= 3000 ? text : "..." + text.substring(text.length() - 3000);
    }
}
