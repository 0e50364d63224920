package dev.switchboard.engine.session;

import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.account.AccountStore;
import dev.switchboard.engine.account.Ids;
import dev.switchboard.engine.account.KeyHash;
import dev.switchboard.engine.account.NewUser;
import dev.switchboard.engine.account.PasswordHash;
import dev.switchboard.engine.account.Passwords;
import dev.switchboard.engine.account.RandomSecrets;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.account.Users;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dashboard sign-in (docs/contracts.md §5): passwords checked with the account's PBKDF2 hash, an opaque random
 * session id handed out once (as a cookie) and stored only as its SHA-256, so every instance sees a session
 * and signing out revokes it at once everywhere. Sessions end after {@link SessionPolicy#idle()} without use
 * or {@link SessionPolicy#absolute()} after sign-in. Every sign-in makes a new session id.
 *
 * <p>Failed sign-ins are throttled per login name and per client address in the database. A refusal never
 * says whether the account exists: an unknown name, a wrong password and an account without a password are
 * the same refusal, cost the same hashing work, and count against the same limits.
 */
public final class Sessions {
    /** What every session cookie value starts with. */
    public static final String TOKEN_PREFIX = "sbs_";
    private static final Logger LOG = LoggerFactory.getLogger(Sessions.class);

    private final AccountStore accounts;
    private final CredentialStore credentials;
    private final SessionStore sessions;
    private final ThrottleStore throttle;
    private final Users users;
    private final Passwords passwords;
    private final SessionPolicy policy;
    private final Clock clock;
    private final RandomSecrets secrets = new RandomSecrets(new SecureRandom());
    // hashed lazily: a real verification against it makes an unknown login cost what a known one costs
    private final Supplier<PasswordHash> decoy;

    public Sessions(AccountStore accounts, CredentialStore credentials, SessionStore sessions, ThrottleStore throttle,
                    Users users, Passwords passwords, SessionPolicy policy, Clock clock) {
        this.accounts = Objects.requireNonNull(accounts, "accounts");
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.throttle = Objects.requireNonNull(throttle, "throttle");
        this.users = Objects.requireNonNull(users, "users");
        this.passwords = Objects.requireNonNull(passwords, "passwords");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.clock = Objects.requireNonNull(clock, "clock");
        PasswordHash[] once = new PasswordHash[1];
        this.decoy = () -> {
            synchronized (once) {
                if (once[0] == null) {
                    once[0] = passwords.hash(secrets.next("decoy-"));
                }
                return once[0];
            }
        };
    }

    public SessionPolicy policy() {
        return policy;
    }

    /** A signed-in user: the session and who it belongs to. */
    public record SignedIn(Session session, User user, DashboardRole role) {
    }

    /** A session just made: {@code token} is the cookie value, shown this once. */
    public record Issued(String token, SignedIn signedIn) {
        @Override
        public String toString() {
            return "Issued[token=[redacted], signedIn=" + signedIn + "]";
        }
    }

    /** The result of a sign-in or sign-up. */
    public sealed interface Outcome {
        record Success(Issued issued) implements Outcome {
        }

        /** Wrong login or password (which of the two is never said). */
        record Refused() implements Outcome {
        }

        /** Too many attempts; try again after {@code retryAfter}. */
        record Throttled(Duration retryAfter) implements Outcome {
        }
    }

    /**
     * Signs in with a user name or e-mail address and a password. {@code previousToken}, the session cookie the
     * request carried, is ended: a sign-in never keeps an old session id.
     */
    public Outcome login(String login, String password, String address, Optional<String> previousToken) {
        Instant now = now();
        String loginSubject = "login:" + KeyHash.of(login.strip().toLowerCase(Locale.ROOT)).hex();
        String addressSubject = "addr:" + address;
        Optional<Duration> wait = throttled(loginSubject, policy.failuresPerLogin(), now)
                .or(() -> throttled(addressSubject, policy.failuresPerAddress(), now));
        if (wait.isPresent()) {
            LOG.atInfo().addKeyValue("address", address).log("sign-in throttled");
            return new Outcome.Throttled(wait.get());
        }
        Optional<String> userId = credentials.userIdForLogin(login.strip());
        Optional<PasswordHash> hash = userId.flatMap(accounts::passwordHash);
        boolean ok = passwords.verify(password, hash.orElseGet(decoy)) && hash.isPresent();
        if (!ok) {
            throttle.hit(loginSubject, now, policy.window());
            throttle.hit(addressSubject, now, policy.window());
            LOG.atInfo().addKeyValue("address", address).log("sign-in refused");
            return new Outcome.Refused();
        }
        throttle.clear(loginSubject);
        previousToken.ifPresent(this::logout);
        sessions.deleteExpired(now, now.minus(policy.idle()));
        throttle.prune(now, policy.window());
        return new Outcome.Success(open(userId.get(), now));
    }

    /**
     * Creates a user with a password and signs it in, when sign-up is open ({@code dashboard.signup: open}).
     * Throttled per client address.
     *
     * @throws AccountException INVALID naming {@code name}, {@code email} or {@code password}; CONFLICT when
     *         the name or address is taken
     */
    public Outcome signup(String name, Optional<String> email, String password, String address) {
        if (!policy.openSignup()) {
            throw new IllegalStateException("sign-up is closed");
        }
        Instant now = now();
        String subject = "signup:" + address;
        Optional<Duration> wait = throttled(subject, policy.signupsPerAddress(), now);
        if (wait.isPresent()) {
            return new Outcome.Throttled(wait.get());
        }
        throttle.hit(subject, now, policy.window());
        User user = users.create(new NewUser(name, email, Optional.of(password), User.PAYG, 0));
        LOG.info("signed up user {}", user.id());
        return new Outcome.Success(open(user.id(), now));
    }

    /** The session the cookie value opens, if it is live; a lapsed one is deleted. */
    public Optional<SignedIn> authenticate(String token) {
        if (!RandomSecrets.hasShape(token, TOKEN_PREFIX)) {
            return Optional.empty();
        }
        KeyHash hash = KeyHash.of(token);
        Optional<Session> found = sessions.find(hash);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Session s = found.get();
        if (!s.liveAt(now, policy.idle())) {
            sessions.delete(hash);
            return Optional.empty();
        }
        Optional<User> user = accounts.findUser(s.userId());
        if (user.isEmpty()) {
            sessions.delete(hash);
            return Optional.empty();
        }
        if (!now.isBefore(s.lastSeenAt().plus(policy.touchEvery()))) {
            Instant at = now.truncatedTo(ChronoUnit.MILLIS);
            sessions.touch(hash, at, at.minus(policy.touchEvery()));
        }
        return Optional.of(new SignedIn(s, user.get(), credentials.role(s.userId())));
    }

    /** Ends the session the cookie value opens; whether there was one. */
    public boolean logout(String token) {
        return RandomSecrets.hasShape(token, TOKEN_PREFIX) && sessions.delete(KeyHash.of(token));
    }

    /** Ends every session of the user; how many. */
    public int logoutEverywhere(String userId) {
        return sessions.deleteAllOf(userId);
    }

    /**
     * The signed-in user changes their own password: the current one must be right (a refusal counts as a failed
     * sign-in). Every session of the user ends and a new one is opened for the caller.
     *
     * @return the new session, or empty when {@code current} is wrong
     * @throws AccountException INVALID("new_password") when the new password is unacceptable
     */
    public Optional<Issued> changePassword(SignedIn who, String current, String next, String address) {
        Instant now = now();
        Optional<PasswordHash> hash = accounts.passwordHash(who.user().id());
        if (hash.isEmpty() || !passwords.verify(current, hash.get())) {
            throttle.hit("addr:" + address, now, policy.window());
            return Optional.empty();
        }
        PasswordHash newHash;
        try {
            newHash = passwords.hash(next);
        } catch (AccountException e) {
            throw AccountException.invalid("new_password", e.getMessage().replace("password:", "new_password:"));
        }
        credentials.setPassword(who.user().id(), newHash);
        sessions.deleteAllOf(who.user().id());
        return Optional.of(open(who.user().id(), now));
    }

    /**
     * Sets a user's password (admin API, CLI {@code users passwd}) and ends all their sessions.
     *
     * @return how many sessions ended
     * @throws AccountException NOT_FOUND; INVALID("password")
     */
    public int setPassword(String userId, String password) {
        PasswordHash hash = passwords.hash(password);
        if (!credentials.setPassword(userId, hash)) {
            throw AccountException.notFound("no user with id " + userId);
        }
        LOG.info("password set for user {}", userId);
        return sessions.deleteAllOf(userId);
    }

    /** Letters and digits that cannot be mistaken for each other when read off a terminal. */
    private static final String READABLE = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

    /**
     * Gives a user a fresh random password of 20 readable characters (about 115 bits) and returns it, to be shown
     * once: how the first start lets its operator into the dashboard. Ends the user's sessions.
     *
     * @throws AccountException NOT_FOUND
     */
    public String issuePassword(String userId) {
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder(20);
        for (int i = 0; i < 20; i++) {
            password.append(READABLE.charAt(random.nextInt(READABLE.length())));
        }
        setPassword(userId, password.toString());
        return password.toString();
    }

    /**
     * Sets a user's dashboard role.
     *
     * @throws AccountException NOT_FOUND
     */
    public void setRole(String userId, DashboardRole role) {
        if (!credentials.setRole(userId, role)) {
            throw AccountException.notFound("no user with id " + userId);
        }
        LOG.info("role of user {} set to {}", userId, role.wire());
    }

    /** The role of a user. */
    public DashboardRole role(String userId) {
        return credentials.role(userId);
    }

    private Optional<Duration> throttled(String subject, int limit, Instant now) {
        ThrottleStore.Count c = throttle.count(subject, now, policy.window());
        if (c.events() < limit) {
            return Optional.empty();
        }
        Duration left = Duration.between(now, c.windowEnds());
        return Optional.of(left.isNegative() || left.isZero() ? Duration.ofSeconds(1) : left);
    }

    private Issued open(String userId, Instant now) {
        String token = secrets.next(TOKEN_PREFIX);
        Instant expires = now.plus(policy.absolute());
        Session s = new Session(Ids.next("ses", now), userId, secrets.next(""), now, now, expires);
        sessions.create(s, KeyHash.of(token));
        User user = accounts.findUser(userId).orElseThrow(() -> AccountException.notFound("no user with id " + userId));
        return new Issued(token, new SignedIn(s, user, credentials.role(userId)));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
