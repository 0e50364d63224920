package dev.switchboard.engine.account;

import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First-start convenience: when the database has no user at all, creates the pay-as-you-go user
 * {@value #DEMO_USER} with one unrestricted key, so the gateway is usable right away. The caller
 * prints the returned secret; it cannot be shown again.
 */
public final class DemoBootstrap {

    public static final String DEMO_USER = "demo";
    /** The demo user's opening balance: 10 USD. */
    public static final long DEFAULT_BALANCE_NANOS = 10 * Usd.NANOS_PER_USD;

    private static final Logger LOG = LoggerFactory.getLogger(DemoBootstrap.class);

    private final AccountStore store;
    private final Users users;
    private final ApiKeys keys;

    public DemoBootstrap(AccountStore store, Users users, ApiKeys keys) {
        this.store = Objects.requireNonNull(store, "store");
        this.users = Objects.requireNonNull(users, "users");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /**
     * Creates the demo user and key if there are no users.
     *
     * @return the demo key with its secret, only on the start that created it; empty otherwise
     *         (including when a concurrently starting instance created it first)
     */
    public Optional<IssuedKey> run(long balanceNanos) {
        if (store.hasUsers()) {
            return Optional.empty();
        }
        User demo;
        try {
            demo = users.create(NewUser.named(DEMO_USER, balanceNanos));
        } catch (AccountException e) {
            if (e.kind() == AccountException.Kind.CONFLICT) {
                return Optional.empty(); // another instance got there first; it prints the key
            }
            throw e;
        }
        IssuedKey key = keys.issue(demo.id(), NewKey.unrestricted(DEMO_USER));
        LOG.info("created demo user {} with key {} ({})", demo.id(), key.key().id(), key.key().prefix());
        return Optional.of(key);
    }
}
