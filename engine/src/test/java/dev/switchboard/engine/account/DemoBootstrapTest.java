package dev.switchboard.engine.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.account.Authentication.Authenticated;
import java.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DemoBootstrapTest {

    private final InMemoryAccountStore store = new InMemoryAccountStore();
    private final Clock clock = Clock.systemUTC();
    private final Users users = new Users(store, new Passwords(1), clock);
    private final ApiKeys keys = new ApiKeys(store, clock);
    private final DemoBootstrap bootstrap = new DemoBootstrap(store, users, keys);

    @Test
    void theFirstStartCreatesTheDemoUserWithAWorkingKey() {
        Optional<IssuedKey> issued = bootstrap.run(DemoBootstrap.DEFAULT_BALANCE_NANOS);

        assertThat(issued).isPresent();
        User demo = store.findUserByName("demo").orElseThrow();
        assertThat(demo.balanceNanos()).isEqualTo(10_000_000_000L);
        assertThat(keys.authenticate(issued.get().secret())).isInstanceOfSatisfying(Authenticated.class,
                a -> assertThat(a.principal().user()).isEqualTo(demo));
    }

    @Test
    void laterStartsDoNothing() {
        bootstrap.run(0);
        assertThat(bootstrap.run(0)).isEmpty();
        assertThat(store.keysOf(store.findUserByName("demo").orElseThrow().id())).hasSize(1);
    }

    @Test
    void aDatabaseWithUsersGetsNoDemo() {
        users.create(NewUser.named("alice", 0));
        assertThat(bootstrap.run(0)).isEmpty();
        assertThat(store.findUserByName("demo")).isEmpty();
    }
}
