package dev.switchboard.engine.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AdminKeysTest {

    private final InMemoryAccountStore store = new InMemoryAccountStore();
    private final Clock clock = Clock.systemUTC();

    @Test
    void aConfiguredKeyIsTheOnlyAdminKey() {
        store.saveAdminKeyHashIfAbsent(KeyHash.of("stored-earlier"), clock.instant());
        AdminKeys admin = new AdminKeys(store, Optional.of("configured-admin-key-with-enough-length"), clock);

        assertThat(admin.ensureAdminKey()).isEmpty();
        assertThat(List.of("configured-admin-key-with-enough-length", "configured-admin-key-with-enough-lengt", "stored-earlier", ""))
                .filteredOn(admin::isAdmin).containsExactly("configured-admin-key-with-enough-length");
    }

    @Test
    void withoutConfigTheFirstStartGeneratesAKeyOnce() {
        AdminKeys admin = new AdminKeys(store, Optional.empty(), clock);
        assertThat(admin.isAdmin("anything")).isFalse();

        Optional<String> generated = admin.ensureAdminKey();

        assertThat(generated).get().asString().matches("sk-sb-admin-[A-Za-z0-9_-]{43}");
        assertThat(store.adminKeyHash()).contains(KeyHash.of(generated.orElseThrow()));
        assertThat(admin.isAdmin(generated.orElseThrow())).isTrue();
        assertThat(admin.isAdmin(generated.orElseThrow() + "x")).isFalse();
        assertThat(admin.ensureAdminKey()).isEmpty();
        assertThat(new AdminKeys(store, Optional.empty(), clock).ensureAdminKey())
                .as("a second instance on the same database").isEmpty();
    }

    @Test
    void concurrentFirstStartsPrintExactlyOneKey() throws Exception {
        List<Callable<Optional<String>>> starts = IntStream.range(0, 8)
                .<Callable<Optional<String>>>mapToObj(i -> () -> new AdminKeys(store, Optional.empty(), clock).ensureAdminKey())
                .toList();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Optional<String>> results = pool.invokeAll(starts).stream().map(AdminKeysTest::get).toList();
            assertThat(results.stream().filter(Optional::isPresent)).hasSize(1);
        }
    }

    @Test
    void aBlankConfiguredKeyIsAConfigError() {
        assertThatThrownBy(() -> new AdminKeys(store, Optional.of("  "), clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("admin_key");
    }

    private static <T> T get(Future<T> f) {
        try {
            return f.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
