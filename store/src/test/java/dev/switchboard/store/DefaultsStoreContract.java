package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.User;
import dev.switchboard.engine.defaults.StoredDefaults;
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

/**
 * Every {@link dev.switchboard.engine.defaults.DefaultsStore} contract, run against a real database.
 * A subclass says on which database engine.
 */
abstract class DefaultsStoreContract extends StoreContract {

    private JdbcDefaultsStore store;

    @BeforeEach
    final void createStore() throws Exception {
        JdbcAccountStore accounts = new JdbcAccountStore(database);
        for (String id : List.of("usr_a", "usr_b")) {
            accounts.createUser(new User(id, "name-" + id, Optional.empty(), "payg", 0, T0), Optional.empty());
        }
        store = new JdbcDefaultsStore(database);
    }

    private static StoredDefaults saved(String user, String model, String json, Instant at) {
        return new StoredDefaults(user, model, json, at);
    }

    @Test
    void savedDefaultsAreFoundByUserAndModel() {
        StoredDefaults d = saved("usr_a", "chat-x", "{\"temperature\":0.2}", T0);
        store.put(d);

        assertThat(store.find("usr_a", "chat-x")).contains(d);
        assertThat(store.find("usr_a", "chat-y")).isEmpty();
        assertThat(store.find("usr_b", "chat-x")).isEmpty();
    }

    @Test
    void aSecondPutReplacesTheRow() {
        store.put(saved("usr_a", "chat-x", "{\"temperature\":0.2}", T0));
        StoredDefaults later = saved("usr_a", "chat-x", "{\"top_p\":0.9,\"stop\":[\"END\"]}", T0.plusSeconds(60));
        store.put(later);

        assertThat(store.find("usr_a", "chat-x")).contains(later);
    }

    @Test
    void usersAndModelsAreIndependent() {
        store.put(saved("usr_a", "chat-x", "{\"seed\":1}", T0));
        store.put(saved("usr_a", "chat-y", "{\"seed\":2}", T0));
        store.put(saved("usr_b", "chat-x", "{\"seed\":3}", T0));

        assertThat(store.delete("usr_a", "chat-x")).isTrue();

        assertThat(store.find("usr_a", "chat-x")).isEmpty();
        assertThat(store.find("usr_a", "chat-y").orElseThrow().paramsJson()).isEqualTo("{\"seed\":2}");
        assertThat(store.find("usr_b", "chat-x").orElseThrow().paramsJson()).isEqualTo("{\"seed\":3}");
        assertThat(store.delete("usr_a", "chat-x")).isFalse();
    }

    @Test
    void jsonTextAndTimeRoundTripExactly() {
        String json = "{\"stop\":[\"\u00e9t\u00e9 \ud83d\ude00\",\"\\n\\n\"],\"response_format\":{\"type\":\"json_object\"}}";
        store.put(saved("usr_a", "m/with:odd chars", json, T0));

        StoredDefaults found = store.find("usr_a", "m/with:odd chars").orElseThrow();
        assertThat(found.paramsJson()).isEqualTo(json);
        assertThat(found.updatedAt()).isEqualTo(T0);
    }

    @Test
    void anotherInstanceSeesWritesAtOnce() {
        JdbcDefaultsStore other = new JdbcDefaultsStore(open());
        store.put(saved("usr_a", "chat-x", "{\"seed\":1}", T0));
        assertThat(other.find("usr_a", "chat-x")).isPresent();
        other.delete("usr_a", "chat-x");
        assertThat(store.find("usr_a", "chat-x")).isEmpty();
    }

    @Test
    void anUnknownUserCannotHaveDefaults() {
        assertThatThrownBy(() -> store.put(saved("usr_missing", "chat-x", "{}", T0))).isInstanceOf(StoreException.class);
        assertThat(store.find("usr_missing", "chat-x")).isEmpty();
    }

    @Test
    void concurrentPutsLeaveOneCompleteRow() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Void>> puts = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String json = "{\"seed\":" + i + "}";
                puts.add(() -> {
                    store.put(saved("usr_a", "chat-x", json, T0));
                    return null;
                });
            }
            for (Future<Void> f : pool.invokeAll(puts)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.find("usr_a", "chat-x").orElseThrow().paramsJson()).matches("\\{\"seed\":\\d+}");
    }
}
