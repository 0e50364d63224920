package dev.switchboard.testkit.it.dashboard;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * npm {@code playwright-core} at a pinned version, installed into {@code target/playwright} once per build directory.
 * The core package is the driver only: it never downloads a browser (Debian's Chromium is used).
 */
final class Playwright {
    private Playwright() {
    }

    /** The {@code node_modules} directory that holds playwright-core at {@code version}, installing it when needed. */
    static Path install(String version) throws IOException, InterruptedException {
        Path prefix = Path.of("target", "playwright").toAbsolutePath();
        Path modules = prefix.resolve("node_modules");
        Path pkg = modules.resolve("playwright-core").resolve("package.json");
        if (Files.exists(pkg) && Files.readString(pkg).contains("\"version\": \"" + version + "\"")) {
            return modules;
        }
        Files.createDirectories(prefix);
        Path log = prefix.resolve("npm-install.log");
        Process npm = new ProcessBuilder("npm", "install", "--prefix", prefix.toString(), "--no-audit", "--no-fund",
                "--no-save", "playwright-core@" + version)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!npm.waitFor(5, TimeUnit.MINUTES)) {
            npm.destroyForcibly();
            throw new IllegalStateException("npm install playwright-core@" + version + " took over 5 minutes; see " + log);
        }
        if (npm.exitValue() != 0 || !Files.exists(pkg)) {
            throw new IllegalStateException("npm install playwright-core@" + version + " failed (exit " + npm.exitValue() + "):\n"
                    + Files.readString(log));
        }
        return modules;
    }
}
