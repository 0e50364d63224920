package dev.switchboard.testkit.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * npm packages at pinned versions, installed into a directory under {@code target/} once per build directory (the
 * registry is asked again only when a pinned version changes). Fails with npm's own output when the install fails.
 */
public final class NpmInstall {
    private NpmInstall() {
    }

    /**
     * The {@code node_modules} directory under {@code prefix} holding every package of {@code pinned} (name to exact
     * version), installing them when one is missing or at another version.
     */
    public static Path install(Path prefix, Map<String, String> pinned) throws IOException, InterruptedException {
        Path modules = prefix.toAbsolutePath().resolve("node_modules");
        if (pinned.entrySet().stream().allMatch(p -> installed(modules, p.getKey(), p.getValue()))) {
            return modules;
        }
        Files.createDirectories(prefix);
        Path log = prefix.toAbsolutePath().resolve("npm-install.log");
        List<String> command = new ArrayList<>(List.of("npm", "install", "--prefix", prefix.toAbsolutePath().toString(),
                "--no-audit", "--no-fund", "--no-save"));
        pinned.forEach((name, version) -> command.add(name + "@" + version));
        Process npm = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!npm.waitFor(5, TimeUnit.MINUTES)) {
            npm.destroyForcibly();
            throw new IllegalStateException("npm install " + pinned + " took over 5 minutes; see " + log);
        }
        if (npm.exitValue() != 0 || !pinned.entrySet().stream().allMatch(p -> installed(modules, p.getKey(), p.getValue()))) {
            throw new IllegalStateException("npm install " + pinned + " failed (exit " + npm.exitValue() + "):\n"
                    + Files.readString(log));
        }
        return modules;
    }

    private static boolean installed(Path modules, String name, String version) {
        Path pkg = modules.resolve(name).resolve("package.json");
        try {
            return Files.exists(pkg) && Files.readString(pkg).contains("\"version\": \"" + version + "\"");
        } catch (IOException e) {
            return false;
        }
    }
}
