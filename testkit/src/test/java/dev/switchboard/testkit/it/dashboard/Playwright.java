package dev.switchboard.testkit.it.dashboard;

import dev.switchboard.testkit.it.NpmInstall;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * npm {@code playwright-core} at a pinned version, installed into {@code target/playwright} once per build directory.
 * The core package is the driver only: it never downloads a browser (Debian's Chromium is used).
 */
final class Playwright {
    private Playwright() {
    }

    /** The {@code node_modules} directory that holds playwright-core at {@code version}, installing it when needed. */
    static Path install(String version) throws IOException, InterruptedException {
        return NpmInstall.install(Path.of("target", "playwright"), Map.of("playwright-core", version));
    }
}
