package dev.switchboard.testkit.it.dashboard;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Debian's Chromium ({@code /usr/bin/chromium}, or {@code SWITCHBOARD_CHROMIUM}), and whether it can start here. */
final class Chromium {
    /** The flags every run uses: headless, no sandbox (containers), nothing that calls the internet. */
    static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync");

    private Chromium() {
    }

    static String path() {
        return Optional.ofNullable(System.getenv("SWITCHBOARD_CHROMIUM")).orElse("/usr/bin/chromium");
    }

    /** Why Chromium cannot start (missing, or failing to render a blank page), or empty when it can. */
    static Optional<String> cannotStart() {
        Path exe = Path.of(path());
        if (!Files.isExecutable(exe)) {
            return Optional.of(exe + " is missing (apt-get install -y chromium; .ci/run installs it)");
        }
        try {
            Path profile = Files.createTempDirectory("sb-chromium-probe");
            List<String> cmd = new java.util.ArrayList<>(List.of(exe.toString()));
            cmd.addAll(FLAGS);
            cmd.addAll(List.of("--user-data-dir=" + profile, "--dump-dom", "about:blank"));
            Path log = profile.resolve("probe.log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            boolean done = p.waitFor(60, TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly();
                return Optional.of(exe + " did not render a blank page within 60 s");
            }
            String out = Files.readString(log);
            return p.exitValue() == 0 && out.contains("<html") ? Optional.empty()
                    : Optional.of(exe + " cannot start here (exit " + p.exitValue() + "): "
                            + out.strip().lines().reduce((a, b) -> b).orElse(""));
        } catch (IOException e) {
            return Optional.of(exe + " cannot start: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while starting " + exe);
        }
    }
}
