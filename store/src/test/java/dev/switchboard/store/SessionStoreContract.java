package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.account.KeyHash;
import dev.switchboard.engine.account.PasswordHash;
import dev.switchboard.engine.account.Passwords;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.session.DashboardRole;
import dev.switchboard.engine.session.Session;
import dev.switchboard.engine.session.ThrottleStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The session, throttle and credential store contracts against a real database. */
abstract class SessionStoreContract extends StoreContract {
    private static final Duration WINDOW = Duration.ofMinutes(15);

    private JdbcSessionStore sessions;
    private JdbcThrottleStore throttle;
    private JdbcCredentialStore credentials;

    @BeforeEach
    final void openDatabase() {
        JdbcAccountStore accounts = new JdbcAccountStore(database);
        accounts.createUser(new User("usr_a", "alice", Optional.of("alice@example.com"), "payg", 0, T0), Optional.empty());
        accounts.createUser(new User("usr_b", "bob", Optional.empty(), "payg", 0, T0), Optional.empty());
        sessions = new JdbcSessionStore(database);
        throttle = new JdbcThrottleStore(database);
        credentials = new JdbcCredentialStore(database);
    }

    private static Session session(String id, String user, Instant at) {
        return new Session(id, user, "csrf-" + id, at, at, at.plus(Duration.ofDays(30)));
    }

    @Test
    void sessionsAreFoundByTheirHashOnlyAndDeletedEverywhereAtOnce() {
        KeyHash h1 = KeyHash.of("sbs_one");
        Session s1 = session("ses_1", "usr_a", T0);
        sessions.create(s1, h1);
        JdbcSessionStore other = new JdbcSessionStore(open());
        assertThat(other.find(h1)).contains(s1);
        assertThat(other.find(KeyHash.of("sbs_two"))).isEmpty();

        assertThat(other.delete(h1)).isTrue();
        assertThat(sessions.find(h1)).isEmpty();
        assertThat(sessions.delete(h1)).isFalse();
    }

    @Test
    void touchMovesLastUseOnlyForward() {
        KeyHash h = KeyHash.of("sbs_t");
        sessions.create(session("ses_t", "usr_a", T0), h);
        sessions.touch(h, T0.plusSeconds(120), T0.plusSeconds(60));
        assertThat(sessions.find(h).orElseThrow().lastSeenAt()).isEqualTo(T0.plusSeconds(120));
        sessions.touch(h, T0.plusSeconds(130), T0.plusSeconds(70));
        assertThat(sessions.find(h).orElseThrow().lastSeenAt()).as("touched recently: no write").isEqualTo(T0.plusSeconds(120));
    }

    @Test
    void deletingAllOfAUserAndTheExpired() {
        sessions.create(session("ses_1", "usr_a", T0), KeyHash.of("1"));
        sessions.create(session("ses_2", "usr_a", T0), KeyHash.of("2"));
        sessions.create(session("ses_3", "usr_b", T0), KeyHash.of("3"));
        sessions.create(new Session("ses_4", "usr_b", "c", T0, T0.plusSeconds(3600), T0.plusSeconds(60)), KeyHash.of("4"));
        assertThat(sessions.deleteAllOf("usr_a")).isEqualTo(2);
        assertThat(sessions.find(KeyHash.of("3"))).isPresent();
        assertThat(sessions.deleteExpired(T0.plusSeconds(60), T0.minusSeconds(1))).as("past its absolute end").isEqualTo(1);
        assertThat(sessions.deleteExpired(T0.plusSeconds(61), T0.plusSeconds(1))).as("idle").isEqualTo(1);
        assertThat(sessions.find(KeyHash.of("3"))).isEmpty();
    }

    @Test
    void throttleCountsEveryConcurrentEventAndStartsANewWindowAfterTheOld() throws Exception {
        JdbcThrottleStore other = new JdbcThrottleStore(open());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<ThrottleStore.Count>> hits = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                JdbcThrottleStore t = i % 2 == 0 ? throttle : other;
                hits.add(() -> t.hit("addr:1", T0, WINDOW));
            }
            for (Future<ThrottleStore.Count> f : pool.invokeAll(hits)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        ThrottleStore.Count c = throttle.count("addr:1", T0.plusSeconds(60), WINDOW);
        assertThat(c.events()).isEqualTo(40);
        assertThat(c.windowEnds()).isEqualTo(T0.plus(WINDOW));
        assertThat(throttle.count("addr:1", T0.plus(WINDOW), WINDOW).events()).as("window over").isZero();
        assertThat(throttle.hit("addr:1", T0.plus(WINDOW), WINDOW)).isEqualTo(new ThrottleStore.Count(1, T0.plus(WINDOW).plus(WINDOW)));
        assertThat(throttle.count("addr:2", T0, WINDOW).events()).isZero();

        throttle.clear("addr:1");
        assertThat(throttle.count("addr:1", T0.plus(WINDOW), WINDOW).events()).isZero();
        throttle.hit("addr:3", T0, WINDOW);
        assertThat(throttle.prune(T0.plus(WINDOW), WINDOW)).isEqualTo(1);
    }

    @Test
    void loginsRolesAndPasswords() {
        assertThat(credentials.userIdForLogin("alice")).contains("usr_a");
        assertThat(credentials.userIdForLogin("ALICE@example.com")).contains("usr_a");
        assertThat(credentials.userIdForLogin("Alice")).as("names are exact").isEmpty();
        assertThat(credentials.userIdForLogin("nobody")).isEmpty();

        assertThat(credentials.role("usr_a")).isEqualTo(DashboardRole.USER);
        assertThat(credentials.setRole("usr_a", DashboardRole.ADMIN)).isTrue();
        assertThat(credentials.role("usr_a")).isEqualTo(DashboardRole.ADMIN);
        assertThat(credentials.setRole("usr_x", DashboardRole.ADMIN)).isFalse();

        PasswordHash hash = new Passwords(1).hash("correct horse");
        assertThat(credentials.setPassword("usr_b", hash)).isTrue();
        assertThat(new JdbcAccountStore(open()).passwordHash("usr_b")).contains(hash);
        assertThat(credentials.setPassword("usr_x", hash)).isFalse();
    }
}
