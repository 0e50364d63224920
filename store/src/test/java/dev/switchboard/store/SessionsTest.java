package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.account.NewUser;
import dev.switchboard.engine.account.Passwords;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.account.Users;
import dev.switchboard.engine.session.SessionPolicy;
import dev.switchboard.engine.session.Sessions;
import dev.switchboard.engine.session.Sessions.Outcome;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dashboard sign-in with its real stores (SQLite) and a clock the test moves: lifetimes, throttling, sign-up. */
class SessionsTest {
    private static final String PASSWORD = "correct horse battery";
    private static final SessionPolicy POLICY = new SessionPolicy(Duration.ofHours(1), Duration.ofHours(8), Duration.ofMinutes(1),
            Duration.ofMinutes(15), 3, 5, 2, false);

    @TempDir
    Path dir;
    private Database database;
    private final MovableClock clock = new MovableClock(Instant.parse("2026-05-01T09:00:00Z"));
    private Users users;
    private User ann;

    /** A clock the test moves by hand. */
    static final class MovableClock extends Clock {
        private Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    @BeforeEach
    void open() {
        database = Database.open("sqlite:" + dir.resolve("s.db"));
        users = new Users(new JdbcAccountStore(database), new Passwords(1000), clock);
        ann = users.create(new NewUser("ann", Optional.of("ann@example.com"), Optional.of(PASSWORD), User.PAYG, 0));
        users.create(new NewUser("nopass", Optional.empty(), Optional.empty(), User.PAYG, 0));
    }

    @AfterEach
    void close() {
        database.close();
    }

    private Sessions sessions(SessionPolicy policy) {
        return new Sessions(new JdbcAccountStore(database), new JdbcCredentialStore(database), new JdbcSessionStore(database),
                new JdbcThrottleStore(database), users, new Passwords(1000), policy, clock);
    }

    private static String token(Outcome o) {
        return ((Outcome.Success) o).issued().token();
    }

    @Test
    void aSessionEndsWhenIdleTooLongOrPastItsAbsoluteLifetime() {
        Sessions s = sessions(POLICY);
        String idle = token(s.login("ann", PASSWORD, "1.1.1.1", Optional.empty()));
        clock.advance(Duration.ofMinutes(59));
        assertThat(s.authenticate(idle)).isPresent();
        clock.advance(Duration.ofMinutes(59));
        assertThat(s.authenticate(idle)).as("used 59 minutes ago: the use moved the idle deadline").isPresent();
        clock.advance(Duration.ofMinutes(61));
        assertThat(s.authenticate(idle)).as("idle for more than an hour").isEmpty();

        String busy = token(s.login("ann", PASSWORD, "1.1.1.1", Optional.empty()));
        for (int minutes = 30; minutes <= 9 * 60; minutes += 30) {
            clock.advance(Duration.ofMinutes(30));
            assertThat(s.authenticate(busy).isPresent()).as("after " + minutes + " minutes of use").isEqualTo(minutes < 8 * 60);
        }
    }

    @Test
    void everySignInIsANewSessionAndEndsThePreviousOne() {
        Sessions s = sessions(POLICY);
        String first = token(s.login("ann", PASSWORD, "1.1.1.1", Optional.empty()));
        String second = token(s.login("ann@EXAMPLE.com", PASSWORD, "1.1.1.1", Optional.of(first)));
        assertThat(second).isNotEqualTo(first).startsWith(Sessions.TOKEN_PREFIX);
        assertThat(s.authenticate(first)).isEmpty();
        assertThat(s.authenticate(second).orElseThrow().user().id()).isEqualTo(ann.id());
        assertThat(s.authenticate("sbs_" + "x".repeat(43))).isEmpty();
        assertThat(s.authenticate("garbage")).isEmpty();
        assertThat(s.logout(second)).isTrue();
        assertThat(s.authenticate(second)).isEmpty();
    }

    @Test
    void failuresAreThrottledPerLoginAndPerAddressAndNeverSayWhichAccountsExist() {
        Sessions s = sessions(POLICY);
        for (int i = 0; i < 3; i++) {
            assertThat(s.login("ann", "wrong", "1.1.1." + i, Optional.empty())).isInstanceOf(Outcome.Refused.class);
            assertThat(s.login("ghost", "wrong", "2.2.2." + i, Optional.empty())).isInstanceOf(Outcome.Refused.class);
        }
        assertThat(s.login("ann", PASSWORD, "9.9.9.9", Optional.empty())).as("per login, from any address")
                .isInstanceOf(Outcome.Throttled.class);
        Outcome ghost = s.login("ghost", "wrong", "9.9.9.9", Optional.empty());
        assertThat(ghost).as("an unknown login is throttled the same way").isInstanceOf(Outcome.Throttled.class);
        assertThat(((Outcome.Throttled) ghost).retryAfter()).isBetween(Duration.ofMinutes(14), Duration.ofMinutes(15));
        assertThat(s.login("nopass", "anything", "3.3.3.3", Optional.empty())).as("no password: same refusal")
                .isInstanceOf(Outcome.Refused.class);

        for (int i = 0; i < 5; i++) {
            s.login("someone-" + i, "wrong", "4.4.4.4", Optional.empty());
        }
        assertThat(s.login("nopass", "x", "4.4.4.4", Optional.empty())).as("per address").isInstanceOf(Outcome.Throttled.class);

        clock.advance(Duration.ofMinutes(16));
        assertThat(s.login("ann", PASSWORD, "9.9.9.9", Optional.empty())).as("the window ended").isInstanceOf(Outcome.Success.class);
    }

    @Test
    void signUpIsClosedByDefaultAndThrottledPerAddressWhenOpen() {
        assertThatThrownBy(() -> sessions(POLICY).signup("new", Optional.empty(), PASSWORD, "1.1.1.1"))
                .isInstanceOf(IllegalStateException.class);
        Sessions open = sessions(POLICY.withOpenSignup(true));
        Outcome first = open.signup("newbie", Optional.empty(), PASSWORD, "5.5.5.5");
        assertThat(open.authenticate(token(first)).orElseThrow().user().name()).isEqualTo("newbie");
        assertThatThrownBy(() -> open.signup("newbie", Optional.empty(), PASSWORD, "5.5.5.5")).isInstanceOf(AccountException.class);
        assertThat(open.signup("third", Optional.empty(), PASSWORD, "5.5.5.5")).isInstanceOf(Outcome.Throttled.class);
    }

    @Test
    void settingAPasswordEndsEverySessionOfTheUser() {
        Sessions s = sessions(POLICY);
        String a = token(s.login("ann", PASSWORD, "1.1.1.1", Optional.empty()));
        String b = token(s.login("ann", PASSWORD, "1.1.1.2", Optional.empty()));
        assertThat(s.setPassword(ann.id(), "another password")).isEqualTo(2);
        assertThat(s.authenticate(a)).isEmpty();
        assertThat(s.authenticate(b)).isEmpty();
        assertThat(s.login("ann", PASSWORD, "1.1.1.1", Optional.empty())).isInstanceOf(Outcome.Refused.class);
        assertThat(s.login("ann", "another password", "1.1.1.1", Optional.empty())).isInstanceOf(Outcome.Success.class);
        assertThatThrownBy(() -> s.setPassword("usr_nobody", "another password")).isInstanceOf(AccountException.class);
    }
}
