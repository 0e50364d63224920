package dev.switchboard.server;

import dev.switchboard.engine.account.DemoBootstrap;
import dev.switchboard.engine.billing.HoldSweeper;
import dev.switchboard.engine.billing.MoneyAdmission;
import dev.switchboard.engine.billing.MoneySettlement;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.defaults.SavedDefaultsService;
import dev.switchboard.engine.extend.CatalogService;
import dev.switchboard.engine.extend.Curation;
import dev.switchboard.engine.extend.SkillService;
import dev.switchboard.engine.idempotency.IdempotentRequests;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.session.DashboardRole;
import dev.switchboard.engine.session.SessionPolicy;
import dev.switchboard.engine.session.Sessions;
import dev.switchboard.engine.media.FetchLimits;
import dev.switchboard.engine.media.ImageFetcher;
import dev.switchboard.engine.media.ImageInliner;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.pipeline.Admission;
import dev.switchboard.engine.pipeline.ChatPipeline;
import dev.switchboard.engine.pipeline.PortStack;
import dev.switchboard.engine.limits.GuardedLimitStore;
import dev.switchboard.engine.limits.InMemoryLimitStore;
import dev.switchboard.engine.limits.LimitAdmission;
import dev.switchboard.engine.limits.LimitSettlement;
import dev.switchboard.engine.limits.LimitStore;
import dev.switchboard.engine.limits.PlanQuota;
import dev.switchboard.engine.pipeline.Settlement;
import dev.switchboard.engine.provider.AnthropicDialect;
import dev.switchboard.engine.provider.GeminiDialect;
import dev.switchboard.engine.provider.HttpProviderAdapter;
import dev.switchboard.engine.provider.OpenAiDialect;
import dev.switchboard.engine.provider.OpenAiResponsesDialect;
import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.provider.SimulatorAdapter;
import dev.switchboard.engine.responses.ResponsesService;
import dev.switchboard.engine.skills.SkillUses;
import dev.switchboard.engine.route.FailoverRouter;
import dev.switchboard.engine.upstream.UpstreamClient;
import dev.switchboard.engine.upstream.Watchdog;
import dev.switchboard.server.admin.AdminApi;
import dev.switchboard.server.admin.AdminRoutes;
import dev.switchboard.server.admin.DefaultsAdminApi;
import dev.switchboard.server.admin.UsageAdminApi;
import dev.switchboard.server.api.AccountApi;
import dev.switchboard.engine.account.KeyScope;
import dev.switchboard.server.admin.PlansAdminApi;
import dev.switchboard.server.admin.ProvidersAdminApi;
import dev.switchboard.server.dashboard.SessionAccountApi;
import dev.switchboard.server.dashboard.DashboardAssets;
import dev.switchboard.server.api.Authenticator;
import dev.switchboard.server.api.ChatCompletionsApi;
import dev.switchboard.server.api.GeminiModelsApi;
import dev.switchboard.server.api.Credentials;
import dev.switchboard.server.api.GenerateContentApi;
import dev.switchboard.server.api.IdempotencyKeys;
import dev.switchboard.server.api.Heartbeats;
import dev.switchboard.server.api.MessagesApi;
import dev.switchboard.server.api.ModelsApi;
import dev.switchboard.server.api.OpsApi;
import dev.switchboard.server.api.ResponsesApi;
import dev.switchboard.server.auth.AuthApi;
import dev.switchboard.server.auth.CredentialsAdminApi;
import dev.switchboard.server.auth.RouteGuards;
import dev.switchboard.server.auth.DashboardSessionCallers;
import dev.switchboard.server.auth.SessionAuth;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.server.config.ListenAddress;
import dev.switchboard.server.http.CorsPolicy;
import dev.switchboard.server.extend.CatalogApi;
import dev.switchboard.server.extend.ExtendAdminApi;
import dev.switchboard.server.extend.ExtendRoutes;
import dev.switchboard.server.extend.SkillsApi;
import dev.switchboard.server.extend.StarterCatalog;
import dev.switchboard.server.http.ErrorRenderer;
import dev.switchboard.server.http.Drain;
import dev.switchboard.server.http.HttpEdge;
import dev.switchboard.server.ops.Readiness;
import dev.switchboard.server.http.RequestObserver;
import dev.switchboard.server.trace.Tracing;
import dev.switchboard.server.http.Route;
import dev.switchboard.store.JdbcBalanceStore;
import dev.switchboard.store.JdbcCatalogStore;
import dev.switchboard.store.JdbcIdempotencyStore;
import dev.switchboard.store.JdbcResponseStore;
import dev.switchboard.store.RedisLimitStore;
import dev.switchboard.store.StoreException;
import dev.switchboard.store.JdbcSkillStore;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.openai.OpenAi;
import dev.switchboard.wire.responses.Responses;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running gateway: wires config, database, accounts, providers, the pipeline and the routes, and
 * starts the HTTP edge. The composition root; nothing else constructs services.
 */
public final class GatewayApp implements AutoCloseable {
    private static final ErrorRenderer OPENAI_ERRORS = e -> Json.writeBytes(OpenAi.errorBody(e));
    private static final ErrorRenderer GEMINI_ERRORS = e -> Json.writeBytes(Gemini.errorBody(e));
    private static final ErrorRenderer RESPONSES_ERRORS = e -> Json.writeBytes(Responses.errorBody(e));

    private final GatewayConfig config;
    private final Accounts accounts;
    private final Watchdog watchdog;
    private final UpstreamClient upstream;
    private final Heartbeats heartbeats;
    private final HttpEdge edge;
    private final List<Route> routes;
    private final FirstStart firstStart;
    private final SkillService skills;
    private final SkillUses skillUses;
    private final JdbcBalanceStore balances;
    private final HoldSweeper sweeper;
    /** The limit counters: in Redis when configured (shared by every instance), else in this process. */
    private final LimitStore limitCounters;
    private final IdempotentRequests idempotent;
    private final DashboardAssets dashboardAssets;
    /** Counts the requests being served; begun on SIGTERM ({@link #drain}). */
    private final Drain drain = new Drain();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** OpenTelemetry, when {@code tracing.otlp_endpoint} is set (or a test passed its own); else nothing at all. */
    private final Optional<Tracing> tracing;
    private static final Logger LOG = LoggerFactory.getLogger(GatewayApp.class);
    /** The longest one round of readiness checks waits for the database's and Redis's answers. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(1);
    /** How long one round of readiness checks is reused: a probe storm costs one check per period. */
    static final Duration READY_REUSE = Duration.ofMillis(500);
    /**
     * After the grace period, how long the streams ended then (and requests still waiting for a first upstream
     * byte) get to write their last frame and settle before the process stops regardless.
     */
    static final Duration AFTER_GRACE = Duration.ofSeconds(10);
    /** How often the use counts of applied skills are written to the database. */
    static final Duration SKILL_USES_INTERVAL = Duration.ofSeconds(1);

    /**
     * Wraps the pipeline's {@link Admission} and {@link Settlement} as the composition root built them
     * (tests count calls through it); {@link #NONE} keeps them as they are.
     */
    public record PortDecorators(UnaryOperator<Admission> admission, UnaryOperator<Settlement> settlement) {
        public static final PortDecorators NONE = new PortDecorators(UnaryOperator.identity(), UnaryOperator.identity());
    }

    private GatewayApp(GatewayConfig config, int port, PortDecorators ports, Clock clock, Optional<Tracing> tracing,
                       Prestart prestart) {
        this.config = config;
        this.tracing = tracing;
        // The database is opened and migrated on another thread while the metrics are set up and the prestart's
        // upstream client is awaited: none of them needs it, and with a second core the start is shorter for it.
        FutureTask<Accounts> opening = new FutureTask<>(() -> openAccounts(config, clock));
        Thread.ofPlatform().name("switchboard-open-database").start(opening);
        Deque<AutoCloseable> opened = new ArrayDeque<>();
        tracing.ifPresent(opened::add);
        boolean joined = false;
        try {
            Prestart.Upstream early = prestart.take();
            this.watchdog = opened(opened, early.watchdog());
            this.upstream = opened(opened, early.client());
            this.heartbeats = opened(opened, new Heartbeats(config.edge().heartbeat()));
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            GatewayMetrics metrics = new GatewayMetrics(registry);
            metrics.upstreamPool(upstream.pool()::openConnections, upstream.pool()::idleConnections);
            joined = true;
            this.accounts = joined(opening);
            // closed last, as it was opened first
            opened.addLast(accounts);
            JdbcCatalogStore catalogStore = new JdbcCatalogStore(accounts.database());
            this.skills = new SkillService(catalogStore, new JdbcSkillStore(accounts.database()),
                    id -> config.catalog().resolve(id).map(ModelEntry::id), clock);
            this.skillUses = opened(opened, new SkillUses(skills::recordUses, SKILL_USES_INTERVAL));
            this.balances = new JdbcBalanceStore(accounts.database());
            this.sweeper = opened(opened, new HoldSweeper(balances, clock, config.billing().sweepEvery()));
            this.idempotent = opened(opened, new IdempotentRequests(new JdbcIdempotencyStore(accounts.database()), clock,
                    new IdempotentRequests.Policy(config.edge().idempotencyTtl(), IdempotentRequests.Policy.DEFAULT.lease(),
                            IdempotentRequests.Policy.DEFAULT.maxWait())));
            this.limitCounters = limitCounters(config, clock);
            if (limitCounters instanceof AutoCloseable c) {
                opened.push(c);
            }
            this.dashboardAssets = prestart.dashboard();
            this.routes = List.copyOf(routes(clock, registry, metrics, ports, catalogStore));
            this.edge = listen(config, port, routes, metrics, drain,
                    tracing.map(Tracing::requests).orElse(RequestObserver.NONE));
            // Once listening, not before: made during the start it took CPU from it (40-60 ms later to answer on two
            // cores), and a first https request that comes sooner waits for it just as it would have.
            if (config.catalog().providers().stream().anyMatch(p -> "https".equalsIgnoreCase(p.baseUrl().getScheme()))) {
                upstream.prepareTlsInBackground();
            }
        } catch (RuntimeException | Error e) {
            prestart.close();
            opened.forEach(GatewayApp::closeQuietly);
            if (!joined) {
                closeWhenOpened(opening);
            }
            throw e;
        }
        // Only once the address is ours: a first start that cannot listen must not create (and so lose) the
        // keys it would have printed.
        Optional<String> newAdminKey = accounts.adminKeys().ensureAdminKey();
        Optional<IssuedKey> newDemoKey = accounts.demo().run(DemoBootstrap.DEFAULT_BALANCE_NANOS);
        this.firstStart = new FirstStart(newAdminKey, newDemoKey, newDemoKey.map(k -> firstLogin(k.key().userId())));
    }

    /**
     * The first start's way into the dashboard: the demo user, whom the person starting the gateway is, gets the
     * admin role and a one-time shown password.
     */
    private String firstLogin(String demoUserId) {
        Sessions sessions = accounts.sessions(SessionPolicy.DEFAULT);
        sessions.setRole(demoUserId, DashboardRole.ADMIN);
        return sessions.issuePassword(demoUserId);
    }

    private List<Route> routes(Clock clock, PrometheusMeterRegistry registry, GatewayMetrics metrics, PortDecorators ports,
                               JdbcCatalogStore catalogStore) {
        Map<ProviderType, ProviderAdapter> adapters = new EnumMap<>(ProviderType.class);
        UnaryOperator<dev.switchboard.engine.upstream.HttpCall> outgoing = tracing.map(Tracing::outgoing)
                .orElse(UnaryOperator.identity());
        adapters.put(ProviderType.OPENAI, new HttpProviderAdapter(new OpenAiDialect(), upstream, outgoing));
        adapters.put(ProviderType.OPENAI_RESPONSES, new HttpProviderAdapter(new OpenAiResponsesDialect(), upstream, outgoing));
        adapters.put(ProviderType.ANTHROPIC, new HttpProviderAdapter(new AnthropicDialect(), upstream, outgoing));
        adapters.put(ProviderType.SIMULATOR, new SimulatorAdapter());
        adapters.put(ProviderType.GEMINI, new HttpProviderAdapter(new GeminiDialect(), upstream, outgoing));
        // a client span per attempt only when tracing is on: otherwise the adapters are left as they are
        tracing.ifPresent(t -> adapters.replaceAll((type, adapter) -> t.attempts(adapter)));
        ImageInliner images = new ImageInliner(new ImageFetcher(FetchLimits.DEFAULT));
        FailoverRouter router = new FailoverRouter(config.catalog(), adapters, metrics, images);
        Sessions sessions = accounts.sessions(SessionPolicy.DEFAULT
                .withLifetimes(config.dashboard().sessionIdle(), config.dashboard().sessionMax())
                .withOpenSignup(config.dashboard().openSignup()));
        SessionAuth sessionAuth = new SessionAuth(sessions, config.dashboard());
        Authenticator auth = new Authenticator(accounts.apiKeys(), clock, new DashboardSessionCallers(sessionAuth));
        AdminApi admin = new AdminApi(accounts.admin(),
                config.catalog().plans().all().stream().map(dev.switchboard.engine.catalog.Plan::id).toList());
        RouteGuards guards = RouteGuards.of(accounts.adminKeys(), sessionAuth);
        SavedDefaultsService defaults = new SavedDefaultsService(accounts.defaults(), accounts::userExists, config.catalog(), clock);
        // Limits first, then money: a request money refuses releases what the limits reserved for it.
        LimitStore limitStore = new GuardedLimitStore(limitCounters, config.limits().onStoreFailure(), metrics);
        PortStack limitsThenMoney = new PortStack(List.of(
                new PortStack.Pair(new LimitAdmission(limitStore, PlanQuota.Lookup.of(config.catalog().plans()), metrics, clock),
                        new LimitSettlement(limitStore)),
                new PortStack.Pair(new MoneyAdmission(config.catalog().plans(), balances, clock, config.billing().holdTimeout()),
                        new MoneySettlement(config.catalog().plans(), balances, clock))));
        ChatPipeline chat = new ChatPipeline(config.catalog(), defaults.lookup(), skills, skillUses,
                ports.admission().apply(limitsThenMoney.admission()), router, ports.settlement().apply(limitsThenMoney.settlement()),
                metrics);

        IdempotencyKeys once = new IdempotencyKeys(idempotent, auth);
        ChatCompletionsApi completions = new ChatCompletionsApi(chat, auth, clock, heartbeats);
        ResponsesApi responses = new ResponsesApi(
                new ResponsesService(chat, new JdbcResponseStore(accounts.database()), clock), auth, heartbeats);
        MessagesApi messages = new MessagesApi(chat, auth, heartbeats);
        ModelsApi models = new ModelsApi(config.catalog(), auth, Optional.of(defaults),
                skills);
        AccountApi account = new AccountApi(auth, accounts.admin(), balances, clock);
        OpsApi ops = new OpsApi(readiness(), registry, config.edge().metricsToken());

        // The public catalog (Extend) and the dashboard sign-in it is written through.
        CatalogService catalogService = new CatalogService(catalogStore, clock);
        Curation curation = new Curation(catalogStore, clock);
        if (config.starterCatalog()) {
            StarterCatalog.loadOnce(curation, clock.instant());
        }

        List<Route> routes = new ArrayList<>();
        routes.add(new Route("POST", "/v1/chat/completions", ChatCompletionsApi.ENDPOINT, OPENAI_ERRORS,
                once.wrap(Credentials.BEARER, ChatCompletionsApi.ENDPOINT, completions::handle)));
        routes.add(new Route("POST", "/v1/responses", "responses", RESPONSES_ERRORS,
                once.wrap(Credentials.BEARER, ResponsesApi.ENDPOINT, responses::create)));
        routes.add(new Route("GET", "/v1/responses/{id}", "responses_get", RESPONSES_ERRORS, responses::retrieve));
        routes.add(new Route("DELETE", "/v1/responses/{id}", "responses_delete", RESPONSES_ERRORS, responses::delete));
        routes.add(new Route("GET", "/v1/responses/{id}/input_items", "responses_input_items", RESPONSES_ERRORS,
                responses::inputItems));
        routes.add(new Route("POST", "/v1/messages", MessagesApi.ENDPOINT, MessagesApi.ERRORS,
                once.wrap(Credentials.BEARER_OR_X_API_KEY, MessagesApi.ENDPOINT, messages::create)));
        routes.add(new Route("POST", "/v1/messages/count_tokens", MessagesApi.COUNT_TOKENS_ENDPOINT, MessagesApi.ERRORS,
                messages::countTokens));
        routes.add(new Route("GET", "/v1/models", "models", OPENAI_ERRORS, models::list));
        routes.add(new Route("GET", "/api/models/{id}/allowed-params", "allowed_params", OPENAI_ERRORS, models::allowedParams));
        routes.addAll(AdminRoutes.routes(admin, new UsageAdminApi(balances), new PlansAdminApi(config.catalog().plans()),
                new DefaultsAdminApi(defaults), new ProvidersAdminApi(config.catalog(), metrics), guards.admin(), OPENAI_ERRORS));
        routes.add(new Route("GET", "/v1/credits", KeyScope.USAGE, OPENAI_ERRORS, account::credits));
        routes.add(new Route("GET", "/v1/generation", KeyScope.USAGE, OPENAI_ERRORS, account::generation));
        routes.add(new Route("GET", "/v1/usage", KeyScope.USAGE, OPENAI_ERRORS, account::usage));
        // Content-parts (Gemini) endpoints. Model ids may contain '/', so each route takes a whole prefix and
        // the handler reads {model}:{method} itself; the same calls are served under /v1 (spec 9).
        GeminiModelsApi geminiModels = new GeminiModelsApi(config.catalog(), auth, "/v1beta/models/");
        routes.add(new Route("GET", "/v1beta/models", "models", GEMINI_ERRORS, geminiModels::list));
        routes.add(new Route("GET", "/v1beta/models/*", "models", GEMINI_ERRORS, geminiModels::get));
        for (String version : List.of("/v1beta", "/v1")) {
            GenerateContentApi generate = new GenerateContentApi(chat, auth, heartbeats, version + "/models/");
            routes.add(new Route("POST", version + "/models/*", GenerateContentApi.ENDPOINT, GEMINI_ERRORS,
                    once.wrap(Credentials.GOOGLE, GenerateContentApi.ENDPOINT, GenerateContentApi::generates, generate::handle)));
        }
        routes.addAll(ExtendRoutes.routes(new AuthApi(sessionAuth), new SkillsApi(skills, catalogService, sessionAuth),
                new CatalogApi(catalogService, sessionAuth),
                new ExtendAdminApi(curation, clock),
                new CredentialsAdminApi(sessions), guards, OPENAI_ERRORS));
        SessionAccountApi sessionAccount = new SessionAccountApi(sessionAuth, admin, accounts.admin(), defaults, clock);
        routes.add(new Route("GET", "/v1/keys", "account", OPENAI_ERRORS, sessionAccount::keys));
        routes.add(new Route("POST", "/v1/keys", "account", OPENAI_ERRORS, sessionAccount::createKey));
        routes.add(new Route("POST", "/v1/keys/playground", "account", OPENAI_ERRORS, sessionAccount::playgroundKey));
        routes.add(new Route("DELETE", "/v1/keys/{id}", "account", OPENAI_ERRORS, sessionAccount::revokeKey));
        routes.add(new Route("GET", "/v1/defaults", "account", OPENAI_ERRORS, sessionAccount::listDefaults));
        routes.add(new Route("GET", "/v1/defaults/{model}", "account", OPENAI_ERRORS, sessionAccount::getDefaults));
        routes.add(new Route("PUT", "/v1/defaults/{model}", "account", OPENAI_ERRORS, sessionAccount::putDefaults));
        routes.add(new Route("DELETE", "/v1/defaults/{model}", "account", OPENAI_ERRORS, sessionAccount::deleteDefaults));
        routes.add(new Route("GET", "/", "dashboard", OPENAI_ERRORS, dashboardAssets::shell));
        routes.add(new Route("GET", "/assets/*", "dashboard", OPENAI_ERRORS, dashboardAssets::asset));
        routes.add(new Route("GET", "/health", "health", OPENAI_ERRORS, ops::health));
        routes.add(new Route("GET", "/ready", "ready", OPENAI_ERRORS, ops::ready));
        routes.add(new Route("GET", "/metrics", "metrics", OPENAI_ERRORS, ops::metrics));
        return routes;
    }

    /**
     * Redis when {@code redis:} is configured (an unreachable Redis is not a start-up error: the gateway serves under
     * {@code limits.on_store_failure} until it answers), else memory. The counters' time is Redis's clock, moved by
     * however far {@code clock} is from the system clock (only tests move it).
     */
    private static LimitStore limitCounters(GatewayConfig config, Clock clock) {
        if (config.redis().isEmpty()) {
            return new InMemoryLimitStore(clock);
        }
        Supplier<Duration> offset = clock.equals(Clock.systemUTC()) ? () -> Duration.ZERO
                : () -> Duration.between(Instant.now(), clock.instant());
        return new RedisLimitStore(config.redis().get(), config.limits().redisPrefix(), config.limits().storeTimeout(),
                clock, offset);
    }

    /** The database always, Redis when configured (the limit counters live there), and the drain. */
    private Readiness readiness() {
        List<Readiness.Check> checks = new ArrayList<>();
        checks.add(new Readiness.Check("database", accounts.database()::ping));
        if (limitCounters instanceof RedisLimitStore redis) {
            checks.add(new Readiness.Check("redis", redis::ping));
        }
        return new Readiness(checks, drain::draining, READY_TIMEOUT, READY_REUSE, System::nanoTime);
    }

    private static Accounts openAccounts(GatewayConfig config, Clock clock) {
        try {
            return new Accounts(config.database(), config.adminKey(), clock);
        } catch (StoreException | IllegalArgumentException e) {
            String where = config.isEmbeddedDefault() ? "SWITCHBOARD_DATABASE, or `database` in a config file"
                    : "`database` in " + config.source();
            throw new StartupException(StartupException.DATABASE, e.getMessage() + " (check " + where + ")", e);
        }
    }

    private static HttpEdge listen(GatewayConfig config, int port, List<Route> routes, GatewayMetrics metrics, Drain drain,
                                   RequestObserver observer) {
        String address = new ListenAddress(config.listen().host(), port).toString();
        try {
            return HttpEdge.start(config.listen().host(), port, routes, OPENAI_ERRORS, metrics,
                    new CorsPolicy(config.edge().corsOrigins()), config.edge().maxBodyBytes(), config.edge().readTimeout(), drain, observer);
        } catch (HttpEdge.CannotListen e) {
            String fix = config.isEmbeddedDefault()
                    ? "set SWITCHBOARD_LISTEN, e.g. SWITCHBOARD_LISTEN=127.0.0.1:8081, or give --config FILE with another `listen`"
                    : "change `listen` in " + config.source();
            throw new StartupException(StartupException.LISTEN, "cannot listen on " + address + ": " + e.getMessage()
                    + " (" + fix + ")", e);
        }
    }

    /** The accounts {@code opening} opened, or what it threw (a start-up failure: the database's exit status). */
    private static Accounts joined(FutureTask<Accounts> opening) {
        return joined(opening, "the database was being opened");
    }

    /** What {@code task} returned, or what it threw, as it threw it; {@code doing} names the wait in an interrupt's message. */
    private static <T> T joined(FutureTask<T> task, String doing) {
        try {
            return task.get();
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RuntimeException r -> throw r;
                case Error r -> throw r;
                default -> throw new IllegalStateException(e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + doing, e);
        }
    }

    /** A start failing before the database was needed: waits for it to open (or fail), then closes it. */
    private static void closeWhenOpened(FutureTask<Accounts> opening) {
        closeWhenDone(opening);
    }

    /** Waits for {@code task} to finish and closes what it made; a task that failed made nothing to close. */
    private static void closeWhenDone(FutureTask<? extends AutoCloseable> task) {
        try {
            closeQuietly(task.get());
        } catch (ExecutionException e) {
            // it failed as well: nothing to close, and the first failure is the one to report
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The part of a start that needs no config, begun before the config is read so that it runs on a second core
     * meanwhile: the upstream HTTP client (Helidon's client; its TLS set-up is made later, and only when a provider is
     * reached over https), then Helidon's routing classes (their static set-up builds Helidon's service registry) and the
     * shared JSON mapper. Either handed to {@link GatewayApp#start(GatewayConfig, Prestart)}, which then owns the
     * client, or closed (a start that failed before, e.g. on its config), which waits for the client and closes it.
     * Used by one thread.
     */
    public static final class Prestart implements AutoCloseable {
        /** The upstream client and the watchdog that bounds its calls; closed in the opposite order. */
        record Upstream(Watchdog watchdog, UpstreamClient client) implements AutoCloseable {
            @Override
            public void close() {
                client.close();
                watchdog.close();
            }
        }

        private final FutureTask<Upstream> building;
        /** The dashboard's files read and their version hashed (SHA-256 over them): done here, off the main thread. */
        private final FutureTask<DashboardAssets> dashboard;
        private boolean handedOver;

        private Prestart(FutureTask<Upstream> building, FutureTask<DashboardAssets> dashboard) {
            this.building = building;
            this.dashboard = dashboard;
        }

        /** Starts building on a new thread and returns at once. */
        public static Prestart begin() {
            FutureTask<Upstream> building = new FutureTask<>(() -> {
                Watchdog watchdog = new Watchdog(Duration.ofMillis(50));
                Upstream upstream;
                try {
                    upstream = new Upstream(watchdog, new UpstreamClient(watchdog));
                } catch (RuntimeException | Error e) {
                    watchdog.close();
                    throw e;
                }
                return upstream;
            });
            FutureTask<DashboardAssets> dashboard = new FutureTask<>(DashboardAssets::load);
            Thread.ofPlatform().name("switchboard-prestart").start(() -> {
                building.run();
                dashboard.run();
                warmUp();
            });
            return new Prestart(building, dashboard);
        }

        /**
         * After the client, and not waited for: one-time set-up the main thread and the first request would otherwise
         * do themselves, Helidon's routing classes and the shared JSON mapper (Jackson's class initialisation reads
         * locale data for its date format). A thread that reaches a class while this initialises it waits for it and
         * does not repeat it. A failure here is left to be met again, and reported, where the work is really needed.
         */
        private static void warmUp() {
            try {
                HttpEdge.loadClasses();
                Json.object();
            } catch (RuntimeException e) {
                // see above: the main thread or the request that needs it fails the same way and reports it
            }
        }

        /** What was built, waiting for it; from then on the caller owns it. */
        private Upstream take() {
            if (handedOver) {
                throw new IllegalStateException("a prestart starts one gateway");
            }
            handedOver = true;
            return joined(building, "the upstream client was being built");
        }

        /** The dashboard's files, waiting for them; a file missing from the jar fails here, at start. */
        private DashboardAssets dashboard() {
            return joined(dashboard, "the dashboard's files were being read");
        }

        /** Closes what was built unless a gateway took it; waits for the building to end first. Idempotent. */
        @Override
        public void close() {
            if (!handedOver) {
                handedOver = true;
                closeWhenDone(building);
            }
        }
    }

    private static <T extends AutoCloseable> T opened(Deque<AutoCloseable> opened, T resource) {
        opened.push(resource);
        return resource;
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already failing to start; the start-up error is the one to report
        }
    }

    /** Starts on the configured address. */
    public static GatewayApp start(GatewayConfig config) {
        return start(config, Prestart.begin());
    }

    /**
     * Starts on the configured address with what {@code prestart} built (begun before {@code config} was read). The
     * caller closes {@code prestart} afterwards, which does nothing once a gateway took it.
     */
    public static GatewayApp start(GatewayConfig config, Prestart prestart) {
        return new GatewayApp(config, config.listen().port(), PortDecorators.NONE, Clock.systemUTC(),
                Tracing.of(config.tracing()), prestart);
    }

    /** Starts on {@code port} instead of the configured one (0: any free port; tests). */
    public static GatewayApp start(GatewayConfig config, int port) {
        return new GatewayApp(config, port, PortDecorators.NONE, Clock.systemUTC(), Tracing.of(config.tracing()),
                Prestart.begin());
    }

    /** Starts on {@code port} with the pipeline's ports wrapped by {@code ports} (tests). */
    public static GatewayApp start(GatewayConfig config, int port, PortDecorators ports) {
        return new GatewayApp(config, port, ports, Clock.systemUTC(), Tracing.of(config.tracing()), Prestart.begin());
    }

    /** Starts on {@code port} with the pipeline's ports wrapped by {@code ports}, reading time from {@code clock} (tests). */
    public static GatewayApp start(GatewayConfig config, int port, PortDecorators ports, Clock clock) {
        return new GatewayApp(config, port, ports, clock, Tracing.of(config.tracing()), Prestart.begin());
    }

    /** Starts on {@code port} tracing into {@code tracing} whatever the config says (tests read the spans); closes it. */
    public static GatewayApp start(GatewayConfig config, int port, Tracing tracing) {
        return new GatewayApp(config, port, PortDecorators.NONE, Clock.systemUTC(), Optional.of(tracing), Prestart.begin());
    }

    public int port() {
        return edge.port();
    }

    /** The routes this gateway serves, in matching order, each with its guard (tests walk them). */
    public List<Route> routes() {
        return routes;
    }

    public String baseUrl() {
        return "http://" + config.listen().host() + ":" + port();
    }

    /** The one upstream client (its connection pool is what the soak tests watch). */
    public UpstreamClient upstream() {
        return upstream;
    }

    public GatewayConfig config() {
        return config;
    }

    public Accounts accounts() {
        return accounts;
    }

    /** The skills of the catalog, and the lookup the chat pipeline uses for them. */
    public SkillService skills() {
        return skills;
    }

    /** The secrets this start created, to show once. */
    public FirstStart firstStart() {
        return firstStart;
    }

    /** The balances, holds and usage records (tests read what billing did). */
    public JdbcBalanceStore balances() {
        return balances;
    }

    /** Where the dashboard is served. */
    public String dashboardUrl() {
        return baseUrl() + "/";
    }

    /**
     * What a start created and is the only one to show: the admin key (a first start without a configured one), the
     * demo user's key (a first start on an empty database) and, with it, the demo user's dashboard password. Only
     * their hashes are stored; all empty on a later start.
     */
    public record FirstStart(Optional<String> adminKey, Optional<IssuedKey> demoKey, Optional<String> demoPassword) {
        /** Whether this start created a key to show. */
        public boolean createdKeys() {
            return adminKey.isPresent() || demoKey.isPresent();
        }
    }

    /** What a drain found: requests running when it began, and whether the grace period had to end streams. */
    public record DrainResult(int inFlightAtStart, int streamsEnded, int leftRunning) {
    }

    /**
     * The graceful stop, before {@link #close()}: new requests are refused (503) and {@code /ready} answers 503 at
     * once; requests and streams already running get {@code grace} to finish; streams still open then are ended
     * with an in-band error (and settled like any stream cut short), and whatever still runs gets
     * {@link #AFTER_GRACE} to write its last frame and settle. Returns what happened; never throws.
     */
    public DrainResult drain(Duration grace) {
        drain.begin();
        int atStart = drain.inFlight();
        LOG.atInfo().addKeyValue("in_flight", atStart).addKeyValue("grace_ms", grace.toMillis())
                .log("shutting down: refusing new requests, letting running ones finish");
        int ended = 0;
        if (!drain.awaitIdle(grace)) {
            ended = heartbeats.endOpenStreams("The gateway is shutting down and this request's grace period is over;"
                    + " the answer above is incomplete. Retry the request.");
            drain.awaitIdle(AFTER_GRACE);
        }
        int left = drain.inFlight();
        LOG.atInfo().addKeyValue("in_flight_at_start", atStart).addKeyValue("streams_ended", ended)
                .addKeyValue("left_running", left).log("drained");
        return new DrainResult(atStart, ended, left);
    }

    /** Stops everything: the listener, then the background writers (flushed: skill uses), then the database. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        edge.close();
        tracing.ifPresent(Tracing::close);
        sweeper.close();
        idempotent.close();
        skillUses.close();
        if (limitCounters instanceof AutoCloseable c) {
            closeQuietly(c);
        }
        heartbeats.close();
        upstream.close();
        watchdog.close();
        accounts.close();
    }
}
