package dev.switchboard.engine.account;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The operations behind the admin API and its CLI twins (docs/admin.md). Takes request values as
 * they arrive (optional fields, decimal dollar strings, ISO-8601 instants), applies defaults,
 * validates, and calls the account services. Every refusal is an {@link AccountException} naming
 * the admin API field at fault.
 */
public final class AdminService {

    /** How many ledger entries {@link #getUser} returns. */
    public static final int RECENT_LEDGER_ENTRIES = 20;
    private static final int MAX_NOTE_LENGTH = 500;
    private static final int MAX_IDEMPOTENCY_KEY_LENGTH = 200;
    /** The most ledger entries {@link #ledger} returns at once. */
    public static final int MAX_LEDGER = 1000;

    private final AccountStore store;
    private final Users users;
    private final ApiKeys keys;
    private final Clock clock;

    public AdminService(AccountStore store, Users users, ApiKeys keys, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.users = Objects.requireNonNull(users, "users");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * {@code POST /admin/v1/users}. Absent fields are empty.
     *
     * @param balanceUsd opening balance as decimal dollars, e.g. {@code "25.50"}; default 0
     * @param plan       default {@code payg}
     */
    public record CreateUser(Optional<String> name, Optional<String> email, Optional<String> password,
                             Optional<String> plan, Optional<String> balanceUsd) {
        public CreateUser {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(email, "email");
            Objects.requireNonNull(password, "password");
            Objects.requireNonNull(plan, "plan");
            Objects.requireNonNull(balanceUsd, "balanceUsd");
        }

        @Override
        public String toString() {
            return "CreateUser[name=" + name + ", email=" + email + ", password=" + password.map(p -> "[redacted]")
                    + ", plan=" + plan + ", balanceUsd=" + balanceUsd + "]";
        }
    }

    /**
     * {@code POST /admin/v1/users/{id}/credits}. Absent fields are empty.
     *
     * @param amountUsd positive decimal dollars, e.g. {@code "10"} or {@code "0.25"}; required
     * @param note      free text kept with the ledger entry; blank counts as absent
     */
    public record AddCredits(Optional<String> amountUsd, Optional<String> note, Optional<String> idempotencyKey) {
        public AddCredits {
            Objects.requireNonNull(amountUsd, "amountUsd");
            Objects.requireNonNull(note, "note");
            Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        }

        /** A credit without an idempotency key. */
        public AddCredits(Optional<String> amountUsd, Optional<String> note) {
            this(amountUsd, note, Optional.empty());
        }
    }

    /**
     * {@code PUT /admin/v1/users/{id}/plan}.
     *
     * @param plan      a configured plan id, or {@code payg} to end the subscription; required
     * @param expiresAt an ISO-8601 instant; absent: the plan does not expire
     */
    public record SetPlan(Optional<String> plan, Optional<String> expiresAt) {
        public SetPlan {
            Objects.requireNonNull(plan, "plan");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }
    }

    /**
     * {@code POST /admin/v1/users/{id}/keys}. Absent fields are empty; empty lists mean "all".
     *
     * @param limits    the key's limits as they arrive
     * @param expiresAt an ISO-8601 instant such as {@code 2027-01-01T00:00:00Z}
     */
    public record CreateKey(Optional<String> name, List<String> models, List<String> endpoints, LimitsInput limits,
                            Optional<String> expiresAt) {
        public CreateKey {
            Objects.requireNonNull(name, "name");
            models = List.copyOf(models);
            endpoints = List.copyOf(endpoints);
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }

        /** A key with every field defaulted. */
        public static CreateKey defaults() {
            return new CreateKey(Optional.empty(), List.of(), List.of(), LimitsInput.NONE, Optional.empty());
        }
    }

    /**
     * A key's limits as they arrive on creation; absent fields are no limit.
     *
     * @param budgetUsd    decimal dollars, e.g. {@code "5"} or {@code "0.25"}
     * @param budgetPeriod {@code daily}, {@code weekly}, {@code monthly} or {@code total} (the default)
     */
    public record LimitsInput(OptionalLong rpm, OptionalLong tpm, OptionalLong dailyTokens, OptionalLong maxParallel,
                              Optional<String> budgetUsd, Optional<String> budgetPeriod) {
        public static final LimitsInput NONE = new LimitsInput(OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.empty(), Optional.empty(), Optional.empty());

        public LimitsInput {
            Objects.requireNonNull(rpm, "rpm");
            Objects.requireNonNull(tpm, "tpm");
            Objects.requireNonNull(dailyTokens, "dailyTokens");
            Objects.requireNonNull(maxParallel, "maxParallel");
            Objects.requireNonNull(budgetUsd, "budgetUsd");
            Objects.requireNonNull(budgetPeriod, "budgetPeriod");
        }

        /** As a change of every field it names (absent fields are kept). */
        UpdateKey asUpdate() {
            return new UpdateKey(Change.keep(), Change.keep(), Change.keep(), change(rpm), change(tpm),
                    change(dailyTokens), change(maxParallel), budgetUsd.<Change<String>>map(Change::set).orElse(Change.keep()),
                    budgetPeriod.<Change<String>>map(Change::set).orElse(Change.keep()), Change.keep());
        }

        private static Change<Long> change(OptionalLong v) {
            return v.isPresent() ? Change.set(v.getAsLong()) : Change.keep();
        }
    }

    /**
     * {@code PATCH /admin/v1/keys/{id}}: each field is kept, set, or cleared (JSON {@code null}). Clearing a
     * limit removes it; clearing {@code budget_usd} removes the budget; {@code budget_period} alone changes the
     * period of an existing budget.
     */
    public record UpdateKey(Change<String> name, Change<List<String>> models, Change<List<String>> endpoints,
                            Change<Long> rpm, Change<Long> tpm, Change<Long> dailyTokens, Change<Long> maxParallel,
                            Change<String> budgetUsd, Change<String> budgetPeriod, Change<String> expiresAt) {
        public UpdateKey {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(models, "models");
            Objects.requireNonNull(endpoints, "endpoints");
            Objects.requireNonNull(rpm, "rpm");
            Objects.requireNonNull(tpm, "tpm");
            Objects.requireNonNull(dailyTokens, "dailyTokens");
            Objects.requireNonNull(maxParallel, "maxParallel");
            Objects.requireNonNull(budgetUsd, "budgetUsd");
            Objects.requireNonNull(budgetPeriod, "budgetPeriod");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }

        /** Changes nothing. */
        public static UpdateKey none() {
            return new UpdateKey(Change.keep(), Change.keep(), Change.keep(), Change.keep(), Change.keep(), Change.keep(),
                    Change.keep(), Change.keep(), Change.keep(), Change.keep());
        }
    }

    /** {@code GET /admin/v1/users/{id}}: the user, every key (no secrets) and recent ledger entries. */
    public record UserDetails(User user, List<ApiKey> keys, List<LedgerEntry> recentLedger) {
        public UserDetails {
            Objects.requireNonNull(user, "user");
            keys = List.copyOf(keys);
            recentLedger = List.copyOf(recentLedger);
        }
    }

    /**
     * Creates a user.
     *
     * @throws AccountException INVALID naming {@code name}, {@code email}, {@code password},
     *         {@code plan} or {@code balance_usd}; CONFLICT("name") or CONFLICT("email")
     */
    public User createUser(CreateUser request) {
        String name = request.name().orElseThrow(() -> AccountException.invalid("name", "name: required"));
        long balance = request.balanceUsd().map(usd -> Usd.toNanos(usd, "balance_usd")).orElse(0L);
        return users.create(new NewUser(name, request.email(), request.password(),
                request.plan().orElse(User.PAYG), balance));
    }

    /**
     * The user with its keys.
     *
     * @throws AccountException NOT_FOUND
     */
    public UserDetails getUser(String userId) {
        User user = users.get(userId);
        return new UserDetails(user, store.keysOf(userId), store.ledger(userId, RECENT_LEDGER_ENTRIES));
    }

    /** One page of the user list ({@code GET /admin/v1/users}): zero-based {@code page}, {@code limit} users. */
    public record UserPage(List<User> users, long total, int page, int limit) {
        public UserPage {
            users = List.copyOf(users);
        }
    }

    /** The largest page {@link #listUsers} serves, and the page size when none is asked for. */
    public static final int MAX_PAGE = 100;
    public static final int DEFAULT_PAGE = 30;

    /**
     * Users, oldest first, a page at a time ({@code GET /admin/v1/users?page=&limit=}).
     *
     * @throws AccountException INVALID("page") when negative, INVALID("limit") outside 1..{@value #MAX_PAGE}
     */
    public UserPage listUsers(int page, int limit) {
        if (page < 0) {
            throw AccountException.invalid("page", "page: expected 0 or more, got " + page);
        }
        if (limit < 1 || limit > MAX_PAGE) {
            throw AccountException.invalid("limit", "limit: expected 1 to " + MAX_PAGE + ", got " + limit);
        }
        long offset = (long) page * limit;
        List<User> users = offset > Integer.MAX_VALUE ? List.of() : store.users((int) offset, limit);
        return new UserPage(users, store.countUsers(), page, limit);
    }

    /**
     * The id of the user named by {@code idOrName}: a user id, else a user's exact name (the CLI takes
     * either, so {@code keys create demo} works without looking the id up first).
     *
     * @throws AccountException NOT_FOUND
     */
    public String userIdOf(String idOrName) {
        return store.findUser(idOrName).or(() -> store.findUserByName(idOrName)).map(User::id)
                .orElseThrow(() -> AccountException.notFound("no user with id or name " + idOrName));
    }

    /**
     * Every key of a user, revoked ones included, oldest first ({@code GET /admin/v1/users/{id}/keys}).
     *
     * @throws AccountException NOT_FOUND
     */
    public List<ApiKey> keysOf(String userId) {
        users.get(userId);
        return store.keysOf(userId);
    }

    /**
     * Adds credit ({@code POST /admin/v1/users/{id}/credits}).
     *
     * @return the ledger entry, carrying the new balance
     * @throws AccountException INVALID("amount_usd") unless present, positive and at most
     *         nano-dollar precise; INVALID("note") when longer than 500 characters; NOT_FOUND
     */
    public LedgerEntry addCredits(String userId, AddCredits request) {
        String amountUsd = request.amountUsd().orElseThrow(() -> AccountException.invalid("amount_usd", "amount_usd: required"));
        long amount = Usd.toNanos(amountUsd, "amount_usd");
        if (amount <= 0) {
            throw AccountException.invalid("amount_usd", "amount_usd: expected a positive amount, got " + amountUsd.strip());
        }
        Optional<String> cleanNote = request.note().map(String::strip).filter(n -> !n.isEmpty());
        if (cleanNote.isPresent() && cleanNote.get().length() > MAX_NOTE_LENGTH) {
            throw AccountException.invalid("note", "note: expected at most " + MAX_NOTE_LENGTH + " characters");
        }
        Optional<String> key = request.idempotencyKey().map(String::strip);
        if (key.isPresent() && (key.get().isEmpty() || key.get().length() > MAX_IDEMPOTENCY_KEY_LENGTH)) {
            throw AccountException.invalid("idempotency_key", "idempotency_key: expected 1 to " + MAX_IDEMPOTENCY_KEY_LENGTH
                    + " characters");
        }
        users.get(userId);
        return store.addCredit(userId, amount, cleanNote, key, clock.instant().truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * Puts a user on a plan until an optional expiry, or back on pay-as-you-go
     * ({@code PUT /admin/v1/users/{id}/plan}).
     *
     * @param configured the configured plan ids
     * @return the user as now stored
     * @throws AccountException INVALID("plan") when absent or not configured; INVALID("expires_at") when not an
     *         ISO-8601 instant, or given with {@code payg}; NOT_FOUND
     */
    public User setPlan(String userId, SetPlan request, java.util.Collection<String> configured) {
        users.get(userId);
        String plan = request.plan().map(String::strip).orElseThrow(() -> AccountException.invalid("plan", "plan: required"));
        if (!plan.equals(User.PAYG) && !configured.contains(plan)) {
            throw AccountException.invalid("plan", "plan: expected " + User.PAYG + " or a configured plan "
                    + new java.util.TreeSet<>(configured) + ", got \"" + plan + "\"");
        }
        Optional<Instant> expiresAt = request.expiresAt().map(AdminService::instant);
        if (plan.equals(User.PAYG) && expiresAt.isPresent()) {
            throw AccountException.invalid("expires_at", "expires_at: pay-as-you-go does not expire; leave it out");
        }
        store.setPlan(userId, plan, expiresAt.map(t -> t.truncatedTo(ChronoUnit.MILLIS)));
        return users.get(userId);
    }

    /**
     * The user's most recent ledger entries, newest first ({@code GET /admin/v1/users/{id}/ledger}).
     *
     * @throws AccountException INVALID("limit") outside 1..{@value #MAX_LEDGER}; NOT_FOUND
     */
    public List<LedgerEntry> ledger(String userId, int limit) {
        if (limit < 1 || limit > MAX_LEDGER) {
            throw AccountException.invalid("limit", "limit: expected 1 to " + MAX_LEDGER + ", got " + limit);
        }
        users.get(userId);
        return store.ledger(userId, limit);
    }

    /**
     * Issues a key for the user; the secret in the result is shown once.
     *
     * @throws AccountException INVALID naming {@code name}, {@code models}, {@code endpoints}, {@code rpm},
     *         {@code tpm}, {@code daily_tokens}, {@code max_parallel}, {@code budget_usd}, {@code budget_period}
     *         or {@code expires_at}; NOT_FOUND
     */
    public IssuedKey createKey(String userId, CreateKey request) {
        users.get(userId); // a missing user is a 404 even when the request is also invalid
        KeyScope scope = new KeyScope(request.models(), request.endpoints());
        KeyLimits limits = limits(KeyLimits.NONE, request.limits().asUpdate());
        Optional<Instant> expiresAt = request.expiresAt().map(AdminService::instant);
        NewKey spec = new NewKey(request.name().orElse(NewKey.DEFAULT_NAME), scope, limits, expiresAt);
        return keys.issue(userId, spec);
    }

    /**
     * Changes a key's name, scope, limits or expiry ({@code PATCH /admin/v1/keys/{id}}); takes effect on this
     * instance at once and on the others within {@link ApiKeys#CACHE_TTL}. A revoked key can still be changed
     * (its record), but stays revoked.
     *
     * @return the key as it is now
     * @throws AccountException NOT_FOUND when no key has this id; INVALID naming the field at fault
     */
    public ApiKey updateKey(String keyId, UpdateKey update) {
        ApiKey key = store.findKey(keyId).orElseThrow(() -> AccountException.notFound("no key with id " + keyId));
        String name = update.name().applyTo(key.name(), n -> AccountFields.name("name", n), NewKey.DEFAULT_NAME);
        KeyScope scope = new KeyScope(update.models().applyTo(key.scope().models(), m -> m, List.of()),
                update.endpoints().applyTo(key.scope().endpoints(), e -> e, List.of()));
        KeyLimits limits = limits(key.limits(), update);
        Optional<Instant> expiresAt = update.expiresAt().applyTo(key.expiresAt(), t -> Optional.of(future(instant(t))),
                Optional.empty());
        ApiKey changed = key.withSettings(name, scope, limits, expiresAt.map(t -> t.truncatedTo(ChronoUnit.MILLIS)));
        if (!store.updateKey(changed)) {
            throw AccountException.notFound("no key with id " + keyId);
        }
        keys.forget(keyId);
        return changed;
    }

    /** {@code before} with the limit fields of {@code update} applied and checked. */
    private static KeyLimits limits(KeyLimits before, UpdateKey update) {
        KeyLimits l = before
                .withRpm(count(update.rpm(), before.rpm(), "rpm"))
                .withTpm(count(update.tpm(), before.tpm(), "tpm"))
                .withDailyTokens(count(update.dailyTokens(), before.dailyTokens(), "daily_tokens"))
                .withMaxParallel(count(update.maxParallel(), before.maxParallel(), "max_parallel"));
        Optional<KeyBudget> budget = before.budget();
        if (update.budgetUsd() instanceof Change.Clear<String>) {
            if (update.budgetPeriod() instanceof Change.Set<String>) {
                throw AccountException.invalid("budget_period", "budget_period: cannot be set while budget_usd is removed");
            }
            return l.withBudget(Optional.empty());
        }
        Optional<Long> nanos = update.budgetUsd() instanceof Change.Set<String> s
                ? Optional.of(Usd.toNanos(s.value(), "budget_usd")) : budget.map(KeyBudget::nanos);
        Optional<BudgetPeriod> period = update.budgetPeriod() instanceof Change.Set<String> s
                ? Optional.of(BudgetPeriod.parse(s.value())) : budget.map(KeyBudget::period);
        if (update.budgetPeriod() instanceof Change.Clear<String>) {
            period = Optional.empty();
        }
        if (nanos.isEmpty()) {
            if (update.budgetPeriod() instanceof Change.Set<String>) {
                throw AccountException.invalid("budget_period", "budget_period: needs budget_usd (the key has no budget)");
            }
            return l;
        }
        if (nanos.get() <= 0) {
            throw AccountException.invalid("budget_usd", "budget_usd: expected a positive amount, got " + Usd.format(nanos.get()));
        }
        return l.withBudget(Optional.of(new KeyBudget(nanos.get(), period.orElse(BudgetPeriod.TOTAL))));
    }

    /** The largest request-rate limit (stored as a 32-bit integer). */
    static final long MAX_RPM = Integer.MAX_VALUE;

    private static OptionalLong count(Change<Long> change, OptionalLong before, String field) {
        return change.applyTo(before, v -> {
            AccountFields.positive(field, v);
            if (field.equals("rpm") && v > MAX_RPM) {
                throw AccountException.invalid(field, field + ": expected at most " + MAX_RPM + ", got " + v);
            }
            return OptionalLong.of(v);
        }, OptionalLong.empty());
    }

    private Instant future(Instant expiresAt) {
        if (!expiresAt.isAfter(clock.instant())) {
            throw AccountException.invalid("expires_at", "expires_at: expected an instant in the future, got " + expiresAt);
        }
        return expiresAt;
    }

    /**
     * Revokes a key at once, on every instance. Revoking a revoked key is accepted and changes nothing.
     *
     * @throws AccountException NOT_FOUND when no key has this id
     */
    public void revokeKey(String keyId) {
        if (!store.revokeKey(keyId, clock.instant().truncatedTo(ChronoUnit.MILLIS))) {
            throw AccountException.notFound("no key with id " + keyId);
        }
        keys.forget(keyId);
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw AccountException.invalid("expires_at",
                    "expires_at: expected an ISO-8601 instant such as 2027-01-01T00:00:00Z");
        }
    }
}
