package dev.switchboard.testkit.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.testkit.it.NpmInstall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipes under {@code deploy/} checked by the tools made for them: the systemd unit by
 * {@code systemd-analyze verify} (any warning fails) and {@code systemd-analyze security}; the Kubernetes manifests
 * against the Kubernetes API's schemas and the Containerfile by its linter (npm {@code kubernetes-models},
 * {@code dockerfile-utils}: {@code testkit/src/test/deploy/validate.mjs}); the config they all ship loaded by the
 * gateway's own loader with exactly the variables each recipe provides; and the promises between them (probes,
 * grace periods, selectors, ports). Each tool is also shown a broken copy, so a check that cannot fail is noticed.
 * A missing tool skips its test with one line saying which.
 */
class DeployRecipesIT {
    /**
     * The drain grace the recipes allow for: the gateway's {@code http.shutdown_grace} (SIGTERM: stop accepting,
     * finish in-flight requests and streams for up to this long, settle, exit). Stop timeouts must exceed it.
     */
    static final Duration DRAIN_GRACE = Duration.ofSeconds(30);
    private static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();
    private static final Path SYSTEMD_ANALYZE = Path.of("/usr/bin/systemd-analyze");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path tmp;

    @Test
    void theSystemdUnitVerifiesWithoutAWarningAndIsHardened() throws Exception {
        assumeTrue(Files.isExecutable(SYSTEMD_ANALYZE), "skipped: no systemd-analyze on this machine (the unit is not verified)");
        Path unit = DEPLOY.resolve("systemd/switchboard.service");
        Result verify = run(tmp, SYSTEMD_ANALYZE.toString(), "verify", "--man=no", unit.toString());
        assertThat(verify.output()).as("systemd-analyze verify").isEmpty();
        assertThat(verify.exit()).as("systemd-analyze verify: " + verify.output()).isZero();
        // exposure 0 (locked down) to 10 (unprotected); --threshold is in tenths
        Result security = run(tmp, SYSTEMD_ANALYZE.toString(), "security", "--offline=yes", "--threshold=20", unit.toString());
        assertThat(security.exit()).as("systemd-analyze security above 2.0:\n" + security.output()).isZero();

        Map<String, List<String>> service = unitSection(Files.readString(unit), "Service");
        for (String option : List.of("NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                "CapabilityBoundingSet=", "Restart=on-failure", "User=switchboard", "ReadWritePaths=/var/lib/switchboard")) {
            String[] kv = option.split("=", 2);
            assertThat(service.getOrDefault(kv[0], List.of())).as(option).contains(kv[1]);
        }
        assertThat(service).containsKeys("MemoryMax", "LimitNOFILE");
        assertThat(seconds(service.get("TimeoutStopSec").getLast())).as("TimeoutStopSec above the drain grace")
                .isGreaterThan(DRAIN_GRACE);

        // the same check on a unit with a misspelt option must fail
        Path broken = tmp.resolve("switchboard.service");
        Files.writeString(broken, Files.readString(unit).replace("ProtectHome=yes", "ProtectHome=yes\nProtectHomme=yes"));
        assertThat(run(tmp, SYSTEMD_ANALYZE.toString(), "verify", "--man=no", broken.toString()).output())
                .contains("Unknown key 'ProtectHomme'");
    }

    @Test
    void theManifestsMatchTheKubernetesSchemasAndTheContainerfileLints() throws Exception {
        assumeTrue(onPath("node") && onPath("npm"), "skipped: no node/npm on this machine (manifests and Containerfile not validated)");
        Path dir = Path.of("target", "deploy-validate").toAbsolutePath();
        Path sources = Path.of("src", "test", "deploy");
        Map<String, String> pinned = new LinkedHashMap<>();
        YAML.readTree(sources.resolve("package.json").toFile()).path("dependencies").properties()
                .forEach(e -> pinned.put(e.getKey(), e.getValue().asText()));
        NpmInstall.install(dir, pinned);
        Files.copy(sources.resolve("validate.mjs"), dir.resolve("validate.mjs"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        Result ok = run(dir, "node", dir.resolve("validate.mjs").toString(), DEPLOY.toString());
        System.out.println(ok.output());
        assertThat(ok.exit()).as(ok.output()).isZero();
        assertThat(ok.output()).contains("valid apps/v1 Deployment", "valid policy/v1 PodDisruptionBudget",
                "valid autoscaling/v2 HorizontalPodAutoscaler", "valid v1 Service", "valid v1 ConfigMap", "valid v1 Secret");

        // a Deployment without its selector and a Containerfile running as root must be refused
        Path copy = tmp.resolve("deploy");
        copyTree(DEPLOY, copy);
        Path deployment = copy.resolve("kubernetes/deployment.yaml");
        Files.writeString(deployment, Files.readString(deployment).replace("  selector:\n    matchLabels:\n      app.kubernetes.io/name: switchboard\n  strategy:", "  strategy:"));
        Path containerfile = copy.resolve("container/Containerfile");
        Files.writeString(containerfile, Files.readString(containerfile).replace("USER 10001:10001", "USER root"));
        Result bad = run(dir, "node", dir.resolve("validate.mjs").toString(), copy.toString());
        assertThat(bad.exit()).as(bad.output()).isEqualTo(1);
        assertThat(bad.output()).contains("/spec must have required property selector", "non-root USER");
    }

    @Test
    void theShippedConfigLoadsWithExactlyWhatEachRecipeProvides() throws Exception {
        String config = Files.readString(DEPLOY.resolve("config.yaml"));
        JsonNode configMap = YAML.readTree(DEPLOY.resolve("kubernetes/configmap.yaml").toFile());
        assertThat(configMap.path("data").path("config.yaml").asText()).as("the ConfigMap holds deploy/config.yaml verbatim")
                .isEqualTo(config);

        // Kubernetes: the Secret's keys and the container's env
        JsonNode container = YAML.readTree(DEPLOY.resolve("kubernetes/deployment.yaml").toFile())
                .path("spec").path("template").path("spec").path("containers").get(0);
        Map<String, String> k8sEnv = new HashMap<>();
        YAML.readTree(DEPLOY.resolve("kubernetes/secret.yaml").toFile()).path("stringData").properties()
                .forEach(e -> k8sEnv.put(e.getKey(), e.getValue().asText()));
        container.path("env").forEach(e -> k8sEnv.put(e.path("name").asText(), e.path("value").asText()));
        GatewayConfig k8s = ConfigLoader.parse(config, "configmap config.yaml", k8sEnv);
        assertThat(k8s.redis()).as("Redis configured, so limits are shared").isPresent();
        assertThat(k8s.database()).startsWith("postgresql://");
        assertThat(container.path("ports").get(0).path("containerPort").asInt()).isEqualTo(k8s.listen().port());

        // systemd: the env file's lines
        Map<String, String> systemdEnv = new HashMap<>();
        for (String line : Files.readAllLines(DEPLOY.resolve("systemd/switchboard.env.example"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                systemdEnv.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
            }
        }
        assertThat(ConfigLoader.parse(config, "systemd config.yaml", systemdEnv).listen().host()).isEqualTo("0.0.0.0");
    }

    @Test
    void theKubernetesObjectsPointAtEachOtherAndAllowTheDrain() throws Exception {
        JsonNode deployment = YAML.readTree(DEPLOY.resolve("kubernetes/deployment.yaml").toFile());
        JsonNode pod = deployment.path("spec").path("template").path("spec");
        JsonNode container = pod.path("containers").get(0);
        JsonNode labels = deployment.path("spec").path("template").path("metadata").path("labels");
        assertThat(deployment.path("spec").path("selector").path("matchLabels")).isEqualTo(labels);
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/ready");
        assertThat(container.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/health");
        assertThat(container.path("resources").path("requests").has("cpu")).isTrue();
        assertThat(container.path("resources").path("limits").has("memory")).isTrue();
        int preStop = container.path("lifecycle").path("preStop").path("exec").path("command").get(1).asInt();
        assertThat(Duration.ofSeconds(pod.path("terminationGracePeriodSeconds").asLong()))
                .as("terminationGracePeriodSeconds above the preStop pause plus the drain grace")
                .isGreaterThan(DRAIN_GRACE.plusSeconds(preStop));
        assertThat(YAML.readTree(DEPLOY.resolve("kubernetes/service.yaml").toFile()).path("spec").path("selector")).isEqualTo(labels);
        assertThat(YAML.readTree(DEPLOY.resolve("kubernetes/poddisruptionbudget.yaml").toFile())
                .path("spec").path("selector").path("matchLabels")).isEqualTo(labels);
        JsonNode hpa = YAML.readTree(DEPLOY.resolve("kubernetes/horizontalpodautoscaler.yaml").toFile());
        assertThat(hpa.path("spec").path("scaleTargetRef").path("name").asText()).isEqualTo(deployment.path("metadata").path("name").asText());
        assertThat(hpa.path("spec").path("minReplicas").asInt()).as("the PDB leaves at least two serving").isGreaterThanOrEqualTo(3);
        String secretName = container.path("envFrom").get(0).path("secretRef").path("name").asText();
        assertThat(YAML.readTree(DEPLOY.resolve("kubernetes/secret.yaml").toFile()).path("metadata").path("name").asText())
                .isEqualTo(secretName);
    }

    private static Map<String, List<String>> unitSection(String unit, String section) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        String current = "";
        for (String line : unit.split("\n")) {
            String l = line.strip();
            if (l.startsWith("[")) {
                current = l.substring(1, l.length() - 1);
            } else if (current.equals(section) && !l.isEmpty() && !l.startsWith("#") && l.contains("=")) {
                out.computeIfAbsent(l.substring(0, l.indexOf('=')), k -> new java.util.ArrayList<>()).add(l.substring(l.indexOf('=') + 1));
            }
        }
        return out;
    }

    private static final Pattern SECONDS = Pattern.compile("(\\d+)s?");

    private static Duration seconds(String value) {
        Matcher m = SECONDS.matcher(value);
        assertThat(m.matches()).as("a duration in seconds: " + value).isTrue();
        return Duration.ofSeconds(Long.parseLong(m.group(1)));
    }

    record Result(int exit, String output) {
    }

    private static Result run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " took over 2 minutes");
        }
        return new Result(p.exitValue(), out);
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, tool)));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }
}
