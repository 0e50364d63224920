package dev.switchboard.testkit.soak;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.testkit.GatewayConfigSupport.Model;
import dev.switchboard.testkit.PortSupport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * The fault soak: the gateway as a real process in front of three fake providers whose every attempt fails or
 * answers as a seeded {@link FaultSchedule} says; {@code N} requests in the four formats (most streamed, some
 * clients leaving mid-stream), a fixed number in flight; {@code kill -9} and restart of the gateway during the
 * run; then every outcome judged by the {@link Oracle}, resources compared with a baseline, the database and the
 * log searched for every secret the run made, and a one-screen {@link SoakReport}.
 *
 * <p>Run it with {@code SoakIT} (see {@code docs/soak.md}) or as a main:
 * {@code Soak [requests] [kills] [sqlite|postgresql://...] [seed]}; the exit status is 1 on any violation.
 * Everything listens on 127.0.0.1 only.
 */
public final class Soak {
    static final List<String> PROVIDERS = List.of("p1", "p2", "p3");
    /** The gateway's first-byte and idle deadline for the soak providers. */
    static final Duration DEADLINE = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a hold lasts before the sweeper may release it (the gateway's {@code billing.hold_timeout}). */
    static final Duration HOLD_TIMEOUT = Duration.ofSeconds(15);
    /** What the soak user is given: 100,000 USD, in nano-dollars. */
    static final long START_BALANCE = 100_000L * 1_000_000_000L;
    /**
     * Prices in nano-dollars per million tokens, chosen so that almost every charge needs its one rounding: model
     * {@code soak-a} (providers p1, p2) and the caller's fallback {@code soak-b} (p3) cost differently.
     */
    static final MoneyOracle.Price SOAK_A = new MoneyOracle.Price(1_234_567_891L, 3_333_333_337L);
    static final MoneyOracle.Price SOAK_B = new MoneyOracle.Price(777_777_777L, 5_123_456_789L);

    private Soak() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : SoakSettings.FULL_REQUESTS;
        int kills = args.length > 1 ? Integer.parseInt(args[1]) : SoakSettings.FULL_KILLS;
        String database = args.length > 2 ? args[2] : "sqlite";
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 20261124L;
        Path dir = Files.createTempDirectory("switchboard-soak");
        SoakReport report = run(new SoakSettings(requests, 32, 70, 5, kills, seed, database, dir));
        System.out.println(report.render());
        System.exit(report.violations().isEmpty() ? 0 : 1);
    }

    /** Runs one soak and returns its report; the caller decides what a violation means. */
    public static SoakReport run(SoakSettings s) throws Exception {
        Files.createDirectories(s.dir());
        String adminKey = secret("sk-sb-admin-soak-");
        Map<String, String> providerKeys = new java.util.LinkedHashMap<>();
        PROVIDERS.forEach(p -> providerKeys.put(p, secret("sk-provider-" + p + "-")));
        String databaseUrl = s.database().equals("sqlite") ? "sqlite:" + s.dir().resolve("soak.db") : s.database();
        int port = PortSupport.freeLoopbackPort();
        FaultSchedule schedule = new FaultSchedule(s.seed());
        SoakReport.Builder report = new SoakReport.Builder(s);
        try (SoakUpstreams upstreams = new SoakUpstreams(PROVIDERS, schedule, Duration.ofMillis(10),
                DEADLINE.plusSeconds(1))) {
            Path config = s.dir().resolve("soak.yaml");
            Files.writeString(config, config(port, providerKeys, upstreams));
            try (GatewayProcess gateway = new GatewayProcess(config, s.dir().resolve("gateway.log"), port,
                    Map.of("SOAK_DATABASE", databaseUrl, "SOAK_ADMIN_KEY", adminKey))) {
                gateway.start();
                Accounts accounts = Accounts.create(gateway.baseUrl(), adminKey);
                SoakClient client = new SoakClient(gateway.baseUrl(), accounts.apiKey());
                List<Observation> observations = load(s, gateway, client, report);
                // clients that left are judged on their upstream closing within a second: give it that second
                Thread.sleep(Oracle.ABORT_CLOSE_LIMIT.toMillis() + 500);
                report.providerPorts(upstreams.ports());
                Oracle oracle = new Oracle(PROVIDERS);
                for (Observation o : observations) {
                    boolean killed = report.overlapsKill(o.startNanos(), o.endNanos());
                    List<UpstreamAttempt> attempts = upstreams.attempts(o.n());
                    report.outcome(o, attempts, killed);
                    for (String v : oracle.check(o, attempts, killed)) {
                        report.violation(o.n(), o.format() + (o.streamed() ? " streamed" : "") + " " + o.requestId() + ": " + v);
                    }
                }
                if (upstreams.strayCalls() > 0) {
                    report.violation(-1, upstreams.strayCalls() + " upstream calls named no soak request");
                }
                long bound = (long) s.requests() * PROVIDERS.size();
                report.upstreamCalls(upstreams.calls(), bound);
                if (upstreams.calls() > bound) {
                    report.violation(-1, "upstream calls " + upstreams.calls() + " exceed requests x targets = " + bound);
                }
                report.metrics(gateway.get("/metrics"));
                waitForHolds(databaseUrl, report);
                Thread.sleep(3000); // let the last closed streams settle before the final sample
                for (String open : upstreams.leftOpen()) {
                    report.violation(-1, "the upstream connection of attempt " + open + " was never closed");
                }
                report.finalResources(gateway.sample());
                List<String> secrets = new ArrayList<>(List.of(adminKey, accounts.apiKey(), accounts.password(),
                        accounts.sessionToken()));
                secrets.addAll(providerKeys.values());
                gateway.close();
                MoneyOracle money = new MoneyOracle(Map.of("p1", SOAK_A, "p2", SOAK_A, "p3", SOAK_B));
                // A client can be done before the gateway is: a stream it left, or one whose end it read, is settled only
                // after the gateway notices; the access line is written once it has. A request without one was cut by a
                // kill if one came soon after the client's end; otherwise the gateway never finished it.
                java.util.Set<String> finished = finishedRequestIds(s.dir().resolve("gateway.log"));
                for (Observation o : observations) {
                    if (!o.requestId().isEmpty() && !finished.contains(o.requestId())
                            && !report.overlapsKill(o.startNanos(), o.endNanos())
                            && !report.killSoonAfter(o.endNanos(), UNFINISHED_BEFORE_KILL)) {
                        report.violation(o.n(), o.requestId() + ": the gateway never finished it (no access line) and no kill came");
                    }
                }
                MoneyCheck.reconcile(observations, o -> report.overlapsKill(o.startNanos(), o.endNanos())
                                || !finished.contains(o.requestId()) && report.killSoonAfter(o.endNanos(), UNFINISHED_BEFORE_KILL),
                        upstreams::attempts, money, MoneyBook.read(databaseUrl, accounts.userId()), START_BALANCE, report);
                SecretScan.scan(databaseUrl, s.dir().resolve("gateway.log"), secrets, report);
            }
        }
        return report.build();
    }

    private static List<Observation> load(SoakSettings s, GatewayProcess gateway, SoakClient client,
                                          SoakReport.Builder report) throws Exception {
        List<Observation> out = new CopyOnWriteArrayList<>();
        Random plan = new Random(s.seed());
        List<Integer> killAt = new ArrayList<>();
        for (int i = 1; i <= s.kills(); i++) {
            killAt.add((int) ((long) s.requests() * i / (s.kills() + 1)));
        }
        int lastKill = killAt.isEmpty() ? 0 : killAt.getLast();
        // idle pools and caches fill during the first part of the last segment; measure after it
        int baselineAt = lastKill + Math.max(1, (s.requests() - lastKill) / 3);
        Semaphore inFlight = new Semaphore(s.concurrency());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int n = 0; n < s.requests(); n++) {
                if (killAt.contains(n)) {
                    // kill -9 with the load in flight (those requests are cut), then restart before sending on:
                    // a request that finds no gateway is no test of the gateway
                    long from = System.nanoTime();
                    gateway.kill();
                    gateway.start();
                    report.kill(from, System.nanoTime());
                }
                if (n == baselineAt) {
                    inFlight.acquire(s.concurrency());
                    Thread.sleep(3000);
                    report.baseline(gateway.sample());
                    inFlight.release(s.concurrency());
                }
                ClientFormat format = ClientFormat.values()[n % ClientFormat.values().length];
                int roll = plan.nextInt(100);
                boolean stream = roll < s.streamedPercent();
                boolean abort = roll < s.abortPercent();
                long id = n;
                inFlight.acquire();
                pool.submit(() -> {
                    try {
                        out.add(client.send(id, format, stream, abort));
                    } finally {
                        inFlight.release();
                    }
                });
            }
            inFlight.acquire(s.concurrency());
            inFlight.release(s.concurrency());
        }
        return out;
    }

    /** How long after a client was done a kill may still have cut the gateway's end of its request. */
    static final Duration UNFINISHED_BEFORE_KILL = Duration.ofSeconds(30);
    private static final java.util.regex.Pattern ACCESS_LINE = java.util.regex.Pattern.compile(
            "\"logger\":\"switchboard\\.access\".*?\"request_id\":\"(req_[0-9a-f]+)\"");

    /** The request ids of the gateway's access lines: the requests it finished (answered, settled, logged). */
    private static java.util.Set<String> finishedRequestIds(Path log) throws IOException {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (String line : new String(Files.readAllBytes(log), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            java.util.regex.Matcher m = ACCESS_LINE.matcher(line);
            if (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /**
     * Waits until no hold is open, at most until the sweeper's deadline for the holds the last kill orphaned (their
     * timeout after the kill, plus a few sweeps); what is still open then is the money check's violation.
     */
    private static void waitForHolds(String databaseUrl, SoakReport.Builder report) throws Exception {
        long deadline = Math.max(System.nanoTime() + Duration.ofSeconds(5).toNanos(),
                report.lastKillNanos() + HOLD_TIMEOUT.plusSeconds(5).toNanos());
        while (!MoneyBook.openHolds(databaseUrl).isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.sleep(500);
        }
    }

    private static String config(int port, Map<String, String> keys, SoakUpstreams upstreams) {
        StringBuilder y = new StringBuilder("""
                listen: 127.0.0.1:%d
                database: ${SOAK_DATABASE}
                admin_key: ${SOAK_ADMIN_KEY}
                http: {heartbeat: 2s}
                billing: {hold_timeout: %ds, sweep_every: 1s}
                providers:
                """.formatted(port, HOLD_TIMEOUT.toSeconds()));
        keys.forEach((p, key) -> y.append(upstreamProvider(p, upstreams, key)));
        y.append(models(
                soakA().pricing("{input: %s, output: %s}".formatted(usd(SOAK_A.inputPerMillion()), usd(SOAK_A.outputPerMillion()))),
                soakB().pricing("{input: %s, output: %s}".formatted(usd(SOAK_B.inputPerMillion()), usd(SOAK_B.outputPerMillion())))));
        return y.toString();
    }

    /** A provider on the soak upstream {@code name}, with the run's deadline as its first-byte and idle timeouts. */
    static String upstreamProvider(String name, SoakUpstreams upstreams, String key) {
        return provider(name, "openai", upstreams.baseUrl(name),
                "{connect: 1s, first_byte: %dms, idle: %dms, total: 30s}".formatted(DEADLINE.toMillis(), DEADLINE.toMillis()), key);
    }

    /** The soak's first model, failing over from p1 to p2; its price is the caller's. */
    static Model soakA() {
        return model("soak-a").route("p1/" + SoakUpstreams.UPSTREAM_MODEL, "p2/" + SoakUpstreams.UPSTREAM_MODEL);
    }

    /** The soak's second model, on p3 alone; its price is the caller's. */
    static Model soakB() {
        return model("soak-b").route("p3/" + SoakUpstreams.UPSTREAM_MODEL);
    }

    private static String usd(long nanos) {
        return java.math.BigDecimal.valueOf(nanos, 9).toPlainString();
    }

    /** The user, key, password and dashboard session the run makes (and then searches for). */
    record Accounts(String userId, String apiKey, String password, String sessionToken) {
        static Accounts create(String baseUrl, String adminKey) throws IOException, InterruptedException {
            HttpClient http = HttpClient.newHttpClient();
            String password = secret("pw-");
            JsonNode user = post(http, baseUrl + "/admin/v1/users", adminKey,
                    "{\"name\":\"soak\",\"password\":\"" + password + "\",\"balance_usd\":\"" + usd(START_BALANCE) + "\"}");
            JsonNode key = post(http, baseUrl + "/admin/v1/users/" + user.path("id").asText() + "/keys", adminKey, "{}");
            HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/auth/login"))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"login\":\"soak\",\"password\":\"" + password + "\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            String cookie = login.headers().allValues("set-cookie").stream().filter(c -> c.startsWith("sb_session="))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no session cookie: " + login.body()));
            return new Accounts(user.path("id").asText(), key.path("key").asText(), password, cookie.substring("sb_session=".length()).split(";")[0]);
        }

        private static JsonNode post(HttpClient http, String url, String adminKey, String body)
                throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url))
                    .header("authorization", "Bearer " + adminKey).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException(url + " answered " + r.statusCode() + ": " + r.body());
            }
            return JSON.readTree(r.body());
        }
    }

    static String secret(String prefix) {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return prefix + HexFormat.of().formatHex(b);
    }
}
