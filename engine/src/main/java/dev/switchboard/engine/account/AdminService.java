package dev.switchboard.engine.account;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
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
     * @param expiresAt an ISO-8601 instant such as {@code 2027-01-01T00:00:00Z}
     */
    public record CreateKey(Optional<String> name, List<String> models, List<String> endpoints, OptionalLong rpm,
                            OptionalLong dailyTokens, Optional<String> expiresAt) {
        public CreateKey {
            Objects.requireNonNull(name, "name");
            models = List.copyOf(models);
            endpoints = List.copyOf(endpoints);
            Objects.requireNonNull(rpm, "rpm");
            Objects.requireNonNull(dailyTokens, "dailyTokens");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }

        /** A key with every field defaulted. */
        public static CreateKey defaults() {
            return new CreateKey(Optional.empty(), List.of(), List.of(), OptionalLong.empty(), OptionalLong.empty(),
                    Optional.empty());
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
     * @throws AccountException INVALID naming {@code name}, {@code models}, {@code endpoints},
     *         {@code rpm}, {@code daily_tokens} or {@code expires_at}; NOT_FOUND
     */
    public IssuedKey createKey(String userId, CreateKey request) {
        users.get(userId); // a missing user is a 404 even when the request is also invalid
        KeyScope scope = new KeyScope(request.models(), request.endpoints());
        OptionalInt rpm = OptionalInt.empty();
        if (request.rpm().isPresent()) {
            long v = AccountFields.positive("rpm", request.rpm().getAsLong());
            if (v > Integer.MAX_VALUE) {
                throw AccountException.invalid("rpm", "rpm: expected at most " + Integer.MAX_VALUE + ", got " + v);
            }
            rpm = OptionalInt.of((int) v);
        }
        Optional<Instant> expiresAt = request.expiresAt().map(AdminService::instant);
        NewKey spec = new NewKey(request.name().orElse(NewKey.DEFAULT_NAME), scope, rpm, request.dailyTokens(), expiresAt);
        return keys.issue(userId, spec);
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
