package dev.switchboard.testkit.soak;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.untimedProvider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.engine.account.ApiKeys;
import dev.switchboard.store.Database;
import dev.switchboard.testkit.FakeUpstream;
import dev.switchboard.testkit.PortSupport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scale-out: three gateway processes (the jar operators run) on one PostgreSQL and one Redis, balanced round-robin
 * by the client over the instances that are up, in front of the soak's faulty providers (failover on every
 * request) and one clean provider. During a mixed load (four formats, most streamed, a few clients leaving) it
 * bursts a key limited to {@code rpm} requests a minute over all three, and kills one instance with {@code kill -9}
 * and restarts it. Afterwards it continues a Responses chain started on one instance on another, and revokes a key
 * through one instance's admin API while asking all three with it. Then it judges: every request answered, refused
 * in its format's envelope, or cut by the kill (the soak's {@link Oracle}); exactly {@code rpm} admitted; the
 * ledger exact (one charge per billed request id, each equal to its usage record, charges summing to the balance's
 * change, every answered request billed) and no hold left; the chain continued with its history; the revoked key
 * refused everywhere within {@link ApiKeys#CACHE_TTL}.
 */
public final class ScaleOut {
    /** The instances. */
    public static final int INSTANCES = 3;
    private static final String CLEAN_MODEL = "scale-ok";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();
    /** Holds of requests the kill cut are released after this (so the run can check that none is left). */
    private static final Duration HOLD_TIMEOUT = Duration.ofSeconds(20);

    private ScaleOut() {
    }

    /**
     * @param requests    mixed-load requests
     * @param concurrency requests in flight
     * @param rpm         the limited key's requests per minute; {@code 3 x rpm} are sent at once
     * @param database    a PostgreSQL URL as the gateway takes it (a schema of its own)
     * @param redis       a Redis URL; the run's keys get a prefix of their own
     * @param dir         config files and the instances' logs
     */
    public record Settings(int requests, int concurrency, int rpm, long seed, String database, String redis, Path dir) {
    }

    /** The run's figures, one per line, and every violation of a promise (none when the run passed). */
    public record Report(List<String> lines, List<String> violations) {
        public String render() {
            StringBuilder sb = new StringBuilder("== scale-out: " + INSTANCES + " instances, PostgreSQL + Redis ==\n");
            lines.forEach(l -> sb.append(l).append('\n'));
            sb.append(violations.isEmpty() ? "violations: none\n" : "VIOLATIONS (" + violations.size() + "):\n");
            violations.stream().limit(40).forEach(v -> sb.append("  ").append(v).append('\n'));
            return sb.toString();
        }
    }

    /** One load request: the instance it was sent to and what its client saw. */
    private record Sent(int instance, Observation observation) {
    }

    public static Report run(Settings s) throws Exception {
        Files.createDirectories(s.dir());
        List<String> lines = new ArrayList<>();
        List<String> violations = new CopyOnWriteArrayList<>();
        long started = System.nanoTime();
        lines.add("settings: " + s.requests() + " requests, " + s.concurrency() + " in flight, rpm " + s.rpm() + ", seed " + s.seed());
        String adminKey = Soak.secret("sk-sb-admin-scale-");
        String prefix = "scaleout:" + UUID.randomUUID() + ":";
        int[] ports = new int[INSTANCES];
        for (int i = 0; i < INSTANCES; i++) {
            ports[i] = PortSupport.freeLoopbackPort();
        }
        try (SoakUpstreams upstreams = new SoakUpstreams(Soak.PROVIDERS, new FaultSchedule(s.seed()), Duration.ofMillis(10),
                Soak.DEADLINE.plusSeconds(1)); FakeUpstream clean = FakeUpstream.start()) {
            List<GatewayProcess> gateways = new ArrayList<>();
            for (int i = 0; i < INSTANCES; i++) {
                Path config = s.dir().resolve("instance-" + i + ".yaml");
                Files.writeString(config, config(ports[i], s.redis(), prefix, upstreams, clean));
                gateways.add(new GatewayProcess(config, s.dir().resolve("instance-" + i + ".log"), ports[i],
                        Map.of("SCALE_DATABASE", s.database(), "SCALE_ADMIN_KEY", adminKey)));
            }
            try {
                // all three at once on an empty schema: migrations must be safe to run concurrently
                long t = System.nanoTime();
                parallel(gateways.stream().<Runnable>map(g -> g::start).toList());
                lines.add("start: 3 instances at once on an empty schema, all ready in " + ms(System.nanoTime() - t) + " ms");
                String base0 = gateways.getFirst().baseUrl();
                JsonNode loadUser = admin(base0, adminKey, "POST", "/admin/v1/users",
                        "{\"name\":\"scale-load\",\"balance_usd\":\"1000\"}");
                String loadKey = admin(base0, adminKey, "POST", "/admin/v1/users/" + loadUser.path("id").asText() + "/keys", "{}")
                        .path("key").asText();
                JsonNode limitedUser = admin(gateways.get(1).baseUrl(), adminKey, "POST", "/admin/v1/users",
                        "{\"name\":\"scale-limited\",\"balance_usd\":\"10\"}");
                String limitedKey = admin(gateways.get(1).baseUrl(), adminKey, "POST",
                        "/admin/v1/users/" + limitedUser.path("id").asText() + "/keys", "{\"rpm\":" + s.rpm() + "}").path("key").asText();

                List<SoakClient> clients = gateways.stream().map(g -> new SoakClient(g.baseUrl(), loadKey)).toList();
                List<Sent> sent = load(s, gateways, clients, limitedKey, lines, violations);
                Thread.sleep(Oracle.ABORT_CLOSE_LIMIT.toMillis() + 500);

                accountFor(sent, upstreams, lines, violations);
                chain(gateways, loadKey, clean, lines, violations);
                revocation(gateways, adminKey, loadUser.path("id").asText(), lines, violations);
                money(s.database(), loadUser.path("id").asText(), sent, lines, violations);
                for (String open : upstreams.leftOpen()) {
                    violations.add("the upstream connection of attempt " + open + " was never closed");
                }
            } finally {
                gateways.forEach(GatewayProcess::close);
            }
        }
        lines.add("wall time: " + ms(System.nanoTime() - started) / 1000 + " s; logs under " + s.dir());
        return new Report(lines, violations);
    }

    private static List<Sent> load(Settings s, List<GatewayProcess> gateways, List<SoakClient> clients, String limitedKey,
                                   List<String> lines, List<String> violations) throws Exception {
        List<Sent> out = new CopyOnWriteArrayList<>();
        boolean[] up = new boolean[INSTANCES];
        java.util.Arrays.fill(up, true);
        Random plan = new Random(s.seed());
        int burstAt = s.requests() / 4;
        int killAt = s.requests() / 2;
        int victim = INSTANCES - 1;
        AtomicInteger next = new AtomicInteger();
        Semaphore inFlight = new Semaphore(s.concurrency());
        Future<?> restart = null;
        long[] kill = new long[2];
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int n = 0; n < s.requests(); n++) {
                if (n == burstAt) {
                    pool.submit(() -> burst(gateways, limitedKey, s.rpm(), lines, violations));
                }
                if (n == killAt) {
                    // an operator's load balancer takes the instance out when its health check fails; the requests
                    // it was serving are cut
                    synchronized (up) {
                        up[victim] = false;
                    }
                    kill[0] = System.nanoTime();
                    gateways.get(victim).kill();
                    restart = pool.submit(() -> {
                        gateways.get(victim).start();
                        kill[1] = System.nanoTime();
                        synchronized (up) {
                            up[victim] = true;
                        }
                    });
                }
                int instance;
                synchronized (up) {
                    do {
                        instance = next.getAndIncrement() % INSTANCES;
                    } while (!up[instance]);
                }
                ClientFormat format = ClientFormat.values()[n % ClientFormat.values().length];
                int roll = plan.nextInt(100);
                boolean stream = roll < 70;
                boolean abort = roll < 3;
                long id = n;
                int target = instance;
                inFlight.acquire();
                pool.submit(() -> {
                    try {
                        out.add(new Sent(target, clients.get(target).send(id, format, stream, abort)));
                    } finally {
                        inFlight.release();
                    }
                });
            }
            inFlight.acquire(s.concurrency());
            inFlight.release(s.concurrency());
            if (restart != null) {
                restart.get();
            }
        }
        lines.add("kill -9 of instance " + victim + " at request " + killAt + ", back and ready after " + ms(kill[1] - kill[0]) + " ms");
        // cut by the kill: sent to the victim and still open when it died
        List<Sent> judged = new ArrayList<>();
        for (Sent x : out) {
            boolean cut = x.instance() == victim && x.observation().startNanos() < kill[0] && x.observation().endNanos() >= kill[0];
            judged.add(cut ? new Sent(-1 - x.instance(), x.observation()) : x);
        }
        if (out.size() != s.requests()) {
            violations.add("requests sent " + s.requests() + ", observed " + out.size());
        }
        return judged;
    }

    /** {@code 3 x rpm} requests of the limited key at once, round-robin over the instances: exactly rpm admitted. */
    private static void burst(List<GatewayProcess> gateways, String key, int rpm, List<String> lines, List<String> violations) {
        List<Future<Integer>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 3 * rpm; i++) {
                String base = gateways.get(i % INSTANCES).baseUrl();
                answers.add(pool.submit(() -> post(base, "/v1/chat/completions", key,
                        "{\"model\":\"" + CLEAN_MODEL + "\",\"max_tokens\":50,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                        .statusCode()));
            }
            Map<Integer, Integer> statuses = new java.util.TreeMap<>();
            for (Future<Integer> f : answers) {
                statuses.merge(f.get(), 1, Integer::sum);
            }
            int admitted = statuses.getOrDefault(200, 0);
            lines.add("limits: key at rpm " + rpm + ", " + 3 * rpm + " requests at once over 3 instances: statuses " + statuses
                    + " (admitted " + admitted + ", one instance would admit " + rpm + ")");
            if (admitted != rpm || statuses.getOrDefault(429, 0) != 2 * rpm) {
                violations.add("rpm " + rpm + " across instances admitted " + statuses);
            }
        } catch (Exception e) {
            violations.add("the rpm burst failed: " + e);
        }
    }

    private static void accountFor(List<Sent> sent, SoakUpstreams upstreams, List<String> lines, List<String> violations) {
        Oracle oracle = new Oracle(Soak.PROVIDERS);
        Map<Observation.Kind, Integer> kinds = new EnumMap<>(Observation.Kind.class);
        int[] perInstance = new int[INSTANCES];
        int cut = 0;
        Map<Integer, Integer> refusals = new java.util.TreeMap<>();
        for (Sent x : sent) {
            Observation o = x.observation();
            boolean killed = x.instance() < 0;
            perInstance[killed ? -1 - x.instance() : x.instance()]++;
            if (killed) {
                cut++;
            } else {
                kinds.merge(o.kind(), 1, Integer::sum);
                if (o.kind() == Observation.Kind.REFUSED) {
                    refusals.merge(o.status(), 1, Integer::sum);
                }
            }
            for (String v : oracle.check(o, upstreams.attempts(o.n()), killed)) {
                violations.add("request " + o.n() + " on instance " + x.instance() + " " + o.format()
                        + (o.streamed() ? " streamed " : " ") + o.requestId() + ": " + v);
            }
        }
        lines.add("load: " + sent.size() + " requests, per instance " + java.util.Arrays.toString(perInstance) + "; " + kinds
                + ", refusals by status " + refusals + ", cut by the kill " + cut);
        long attempts = upstreams.allAttempts().stream().mapToLong(List::size).sum();
        lines.add("failover: " + attempts + " upstream attempts for " + sent.size() + " requests ("
                + String.format(java.util.Locale.ROOT, "%.2f", attempts / (double) Math.max(1, sent.size())) + " per request)");
    }

    /** A Responses chain started on instance 0 and continued on the last one (the restarted instance). */
    private static void chain(List<GatewayProcess> gateways, String key, FakeUpstream clean, List<String> lines,
                              List<String> violations) throws Exception {
        String word = "pelican-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> first = post(gateways.getFirst().baseUrl(), "/v1/responses", key,
                "{\"model\":\"" + CLEAN_MODEL + "\",\"input\":\"Remember the word " + word + "\"}");
        if (first.statusCode() != 200) {
            violations.add("Responses chain: the first turn answered " + first.statusCode() + ": " + first.body());
            return;
        }
        String id = JSON.readTree(first.body()).path("id").asText();
        HttpResponse<String> second = post(gateways.getLast().baseUrl(), "/v1/responses", key,
                "{\"model\":\"" + CLEAN_MODEL + "\",\"previous_response_id\":\"" + id + "\",\"input\":\"Which word?\"}");
        boolean carried = clean.received().stream().anyMatch(r -> r.bodyText().contains("Which word?") && r.bodyText().contains(word));
        lines.add("Responses chain: started on instance 0 (" + id + "), continued on instance " + (INSTANCES - 1) + ": "
                + second.statusCode() + (carried ? ", the upstream got the first turn's text" : ""));
        if (second.statusCode() != 200 || !carried) {
            violations.add("Responses chain continued on another instance: " + second.statusCode() + " " + second.body()
                    + (carried ? "" : "; the upstream never got the first turn with the second"));
        }
    }

    /**
     * A key used on every instance (so each has it in its lookup cache) is revoked through instance 1's admin API;
     * then every instance is asked with it every 50 ms: none may accept it once {@link ApiKeys#CACHE_TTL} has passed
     * since the revocation was answered.
     */
    private static void revocation(List<GatewayProcess> gateways, String adminKey, String userId, List<String> lines,
                                   List<String> violations) throws Exception {
        JsonNode created = admin(gateways.getFirst().baseUrl(), adminKey, "POST", "/admin/v1/users/" + userId + "/keys", "{}");
        String key = created.path("key").asText();
        String ask = "{\"model\":\"" + CLEAN_MODEL + "\",\"max_tokens\":20,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        for (GatewayProcess g : gateways) {
            int status = post(g.baseUrl(), "/v1/chat/completions", key, ask).statusCode();
            if (status != 200) {
                violations.add("revocation: the key was refused (" + status + ") before it was revoked");
            }
        }
        admin(gateways.get(1).baseUrl(), adminKey, "DELETE", "/admin/v1/keys/" + created.path("id").asText(), "");
        long revoked = System.nanoTime();
        long bound = ApiKeys.CACHE_TTL.toNanos();
        List<String> lags = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> perInstance = new ArrayList<>();
            for (int i = 0; i < INSTANCES; i++) {
                String base = gateways.get(i).baseUrl();
                int instance = i;
                perInstance.add(pool.submit(() -> {
                    long firstRefusal = -1;
                    while (System.nanoTime() - revoked < bound + Duration.ofMillis(500).toNanos()) {
                        long sentAt = System.nanoTime();
                        int status = post(base, "/v1/chat/completions", key, ask).statusCode();
                        if (status == 200 && sentAt - revoked > bound) {
                            violations.add("revocation: instance " + instance + " accepted the key " + ms(sentAt - revoked)
                                    + " ms after it was revoked (bound " + ApiKeys.CACHE_TTL.toMillis() + " ms)");
                        }
                        if (status == 200 && firstRefusal >= 0) {
                            violations.add("revocation: instance " + instance + " accepted the key again after refusing it");
                        }
                        if (status == 401 && firstRefusal < 0) {
                            firstRefusal = sentAt - revoked;
                        } else if (status != 200 && status != 401) {
                            violations.add("revocation: instance " + instance + " answered " + status);
                        }
                        Thread.sleep(50);
                    }
                    return firstRefusal < 0 ? "never" : ms(Math.max(0, firstRefusal)) + " ms";
                }));
            }
            for (Future<String> f : perInstance) {
                lags.add(f.get());
            }
        }
        lines.add("revocation through instance 1: first refusal per instance after " + lags + " (bound "
                + ApiKeys.CACHE_TTL.toMillis() + " ms, the key lookup's reuse)");
        if (lags.contains("never")) {
            violations.add("revocation: an instance never refused the revoked key: " + lags);
        }
    }

    /** The ledger, the usage records and the holds, read from the database once no hold is left (or the wait ends). */
    private static void money(String databaseUrl, String loadUser, List<Sent> sent, List<String> lines, List<String> violations)
            throws Exception {
        try (Database database = Database.open(databaseUrl); Connection c = database.dataSource().getConnection()) {
            long deadline = System.nanoTime() + HOLD_TIMEOUT.plusSeconds(15).toNanos();
            long holds;
            long waited = System.nanoTime();
            while ((holds = count(c, "SELECT count(*) FROM holds")) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            long held = count(c, "SELECT coalesce(sum(held_nanos), 0) FROM users");
            lines.add("holds: " + holds + " open, " + held + " nanos held, after waiting " + ms(System.nanoTime() - waited)
                    + " ms (the kill's holds are swept after " + HOLD_TIMEOUT.toSeconds() + " s)");
            if (holds != 0 || held != 0) {
                violations.add("holds left at the end: " + holds + " rows, " + held + " nanos held");
            }
            long balance = count(c, "SELECT balance_nanos FROM users WHERE id = ?", loadUser);
            long credits = count(c, "SELECT coalesce(sum(amount_nanos), 0) FROM ledger WHERE user_id = ? AND kind = 'CREDIT'", loadUser);
            Map<String, Long> charges = new HashMap<>();
            long chargeRows = 0;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT request_id, amount_nanos FROM ledger WHERE user_id = ? AND kind = 'CHARGE'")) {
                ps.setString(1, loadUser);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        chargeRows++;
                        String rid = rs.getString(1);
                        if (rid == null || charges.put(rid, rs.getLong(2)) != null) {
                            violations.add("ledger: a charge without its own request id: " + rid);
                        }
                    }
                }
            }
            Map<String, Long> usage = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT request_id, charged_nanos FROM usage_records WHERE user_id = ?")) {
                ps.setString(1, loadUser);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        usage.put(rs.getString(1), rs.getLong(2));
                    }
                }
            }
            long sum = charges.values().stream().mapToLong(Long::longValue).sum();
            for (Map.Entry<String, Long> e : charges.entrySet()) {
                Long record = usage.get(e.getKey());
                if (record == null || record != -e.getValue()) {
                    violations.add("ledger: charge " + e.getValue() + " of " + e.getKey() + " against usage record " + record);
                }
            }
            for (Map.Entry<String, Long> e : usage.entrySet()) {
                if (e.getValue() != 0 && !charges.containsKey(e.getKey())) {
                    violations.add("ledger: usage record " + e.getKey() + " charged " + e.getValue() + " with no ledger charge");
                }
            }
            if (credits + sum != balance) {
                violations.add("ledger: credits " + credits + " + charges " + sum + " != balance " + balance);
            }
            Set<String> answeredUnbilled = new HashSet<>();
            long answered = 0;
            for (Sent x : sent) {
                Observation o = x.observation();
                if (x.instance() >= 0 && o.kind() == Observation.Kind.ANSWERED && !o.inBandError()) {
                    answered++;
                    if (!usage.containsKey(o.requestId())) {
                        answeredUnbilled.add(o.requestId());
                    }
                }
            }
            if (!answeredUnbilled.isEmpty()) {
                violations.add("answered but not billed: " + answeredUnbilled.size() + " requests, e.g. "
                        + answeredUnbilled.stream().limit(3).toList());
            }
            lines.add("money: " + chargeRows + " charges for " + charges.size() + " request ids (" + usage.size()
                    + " usage records; " + answered + " answered requests all billed: " + answeredUnbilled.isEmpty()
                    + "); charges " + sum + " nanos = balance change " + (balance - credits) + " nanos");
        }
    }

    private static long count(Connection c, String sql, String... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setString(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private static String config(int port, String redis, String prefix, SoakUpstreams upstreams, FakeUpstream clean) {
        StringBuilder y = new StringBuilder("""
                listen: 127.0.0.1:%d
                database: ${SCALE_DATABASE}
                admin_key: ${SCALE_ADMIN_KEY}
                redis: %s
                limits: {redis_prefix: "%s"}
                http: {heartbeat: 2s}
                billing: {hold_timeout: %ds, sweep_every: 1s}
                providers:
                """.formatted(port, redis, prefix, HOLD_TIMEOUT.toSeconds()));
        y.append(untimedProvider("p0", "openai", clean.openAiBaseUrl(), "sk-clean"));
        for (String p : Soak.PROVIDERS) {
            y.append(Soak.upstreamProvider(p, upstreams, "sk-" + p));
        }
        y.append(models(
                Soak.soakA().pricing("{input: 1, output: 2}"),
                Soak.soakB().pricing("{input: 1, output: 2}"),
                model(CLEAN_MODEL).pricing("{input: 1, output: 2}").route("p0/clean")));
        return y.toString();
    }

    private static JsonNode admin(String base, String adminKey, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("authorization", "Bearer " + adminKey).header("content-type", "application/json");
        b = body.isEmpty() ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body().isBlank() ? JSON.nullNode() : JSON.readTree(r.body());
    }

    private static HttpResponse<String> post(String base, String path, String key, String body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("authorization", "Bearer " + key).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void parallel(List<Runnable> tasks) throws Exception {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> running = tasks.stream().<Future<?>>map(pool::submit).toList();
            for (Future<?> f : running) {
                f.get();
            }
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
