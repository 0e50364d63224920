package dev.switchboard.testkit;

import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.engine.account.User;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.server.config.GatewayConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A real gateway for end-to-end tests: started in-process on a free loopback port with a fresh SQLite
 * database in a temporary directory, configured by YAML in which {@code ${UPSTREAM_OPENAI}} (and
 * {@code ${UPSTREAM}}) name the fake upstream's base URLs. It creates a user with an API key
 * ({@link #apiKey()}) and knows the admin key ({@link #adminKey()}). {@link #close()} stops everything and
 * deletes the directory.
 */
public final class TestGateway implements AutoCloseable {
    public static final String ADMIN_KEY = "sk-sb-admin-test-0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

    private final FakeUpstream upstream;
    private final Path dir;
    private final GatewayApp app;
    private final String apiKey;
    private final String userId;

    private TestGateway(String yaml, Map<String, String> extraEnv, GatewayApp.PortDecorators ports) {
        this(extraEnv, env -> ConfigLoader.parse(yaml, "test config", env), ports, Clock.systemUTC());
    }

    private TestGateway(Map<String, String> extraEnv, Function<Map<String, String>, GatewayConfig> config,
                        GatewayApp.PortDecorators ports, Clock clock) {
        this.upstream = FakeUpstream.start();
        try {
            this.dir = Files.createTempDirectory("switchboard-it");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("UPSTREAM", upstream.baseUrl());
        env.put("UPSTREAM_OPENAI", upstream.openAiBaseUrl());
        env.put("DATABASE", "sqlite:" + dir.resolve("switchboard.db"));
        env.put("ADMIN_KEY", ADMIN_KEY);
        env.put("SWITCHBOARD_DATABASE", env.get("DATABASE"));
        env.put("SWITCHBOARD_ADMIN_KEY", ADMIN_KEY);
        this.app = GatewayApp.start(config.apply(env), 0, ports, clock);
        User user = app.accounts().admin().createUser(new AdminService.CreateUser(Optional.of("it-user"),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("100")));
        IssuedKey key = app.accounts().admin().createKey(user.id(), AdminService.CreateKey.defaults());
        this.userId = user.id();
        this.apiKey = key.secret();
    }

    /**
     * Starts a gateway with {@code yaml}. The YAML should use {@code database: ${DATABASE}} and
     * {@code admin_key: ${ADMIN_KEY}}; {@link #DEFAULT_HEADER} provides both.
     */
    public static TestGateway start(String yaml) {
        return new TestGateway(yaml, Map.of(), GatewayApp.PortDecorators.NONE);
    }

    public static TestGateway start(String yaml, Map<String, String> env) {
        return new TestGateway(yaml, env, GatewayApp.PortDecorators.NONE);
    }

    /**
     * Starts the configuration the gateway runs on without a config file (the embedded default), with
     * {@code env} as its environment: vendor key variables there enable their providers and the shipped
     * catalog. Nothing is called upstream unless a test sends a request.
     */
    public static TestGateway startEmbeddedDefault(Map<String, String> env) {
        return new TestGateway(env, ConfigLoader::embeddedDefault, GatewayApp.PortDecorators.NONE, Clock.systemUTC());
    }

    /** A gateway whose pipeline ports (admission, settlement) are wrapped by {@code ports}, e.g. to count calls. */
    public static TestGateway start(String yaml, GatewayApp.PortDecorators ports) {
        return new TestGateway(yaml, Map.of(), ports);
    }

    /** A gateway with wrapped pipeline ports that reads time from {@code clock} (e.g. a {@link ShiftedClock}). */
    public static TestGateway start(String yaml, GatewayApp.PortDecorators ports, Clock clock) {
        return new TestGateway(Map.of(), env -> ConfigLoader.parse(yaml, "test config", env), ports, clock);
    }

    /** The first lines every test config needs. */
    public static final String DEFAULT_HEADER = """
            listen: 127.0.0.1:8080
            database: ${DATABASE}
            admin_key: ${ADMIN_KEY}
            """;

    public FakeUpstream upstream() {
        return upstream;
    }

    public GatewayApp app() {
        return app;
    }

    /** e.g. {@code http://127.0.0.1:41234} */
    public String baseUrl() {
        return app.baseUrl();
    }

    /** The base URL an OpenAI SDK is given: {@code baseUrl() + "/v1"}. */
    public String openAiBaseUrl() {
        return baseUrl() + "/v1";
    }

    public String apiKey() {
        return apiKey;
    }

    public String userId() {
        return userId;
    }

    public String adminKey() {
        return ADMIN_KEY;
    }

    /** Another key for the test user, with a scope. */
    public String newKey(List<String> models, List<String> endpoints) {
        return app.accounts().admin().createKey(userId, new AdminService.CreateKey(Optional.empty(), models, endpoints,
                AdminService.LimitsInput.NONE, Optional.empty())).secret();
    }

    @Override
    public void close() {
        try {
            app.close();
        } finally {
            upstream.close();
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a leftover temp dir is harmless
            }
        }
    }
}
