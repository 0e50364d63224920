package dev.switchboard.engine.account;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides who may call the admin API. When the config gives an admin key ({@code admin_key}) that
 * key, and only it, is accepted. Otherwise the first start generates {@code sk-sb-admin-} + 43
 * random base64url characters, stores its hash, and hands the secret out once to be printed; from
 * then on the stored hash is checked on every call, so replacing it in the database takes effect
 * at once on every instance.
 */
public final class AdminKeys {

    /** What every generated admin key starts with. */
    public static final String PREFIX = "sk-sb-admin-";

    private static final Logger LOG = LoggerFactory.getLogger(AdminKeys.class);
    private static final int SHORT_KEY = 32;

    private final AdminKeyStore store;
    private final Optional<KeyHash> configured;
    private final Clock clock;
    private final RandomSecrets secrets;

    /**
     * @param configuredKey the {@code admin_key} from the config, if set; must not be blank
     * @throws IllegalArgumentException when the configured key is blank
     */
    public AdminKeys(AdminKeyStore store, Optional<String> configuredKey, Clock clock) {
        this(store, configuredKey, clock, new SecureRandom());
    }

    AdminKeys(AdminKeyStore store, Optional<String> configuredKey, Clock clock, SecureRandom random) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.secrets = new RandomSecrets(Objects.requireNonNull(random, "random"));
        configuredKey.ifPresent(k -> {
            if (k.isBlank()) {
                throw new IllegalArgumentException("admin_key: expected a non-blank key, or leave it unset to generate one");
            }
            if (k.length() < SHORT_KEY) {
                LOG.warn("admin_key is only {} characters long; use at least {} random characters", k.length(), SHORT_KEY);
            }
        });
        this.configured = configuredKey.map(KeyHash::of);
    }

    /**
     * Makes sure an admin key exists.
     *
     * @return the freshly generated secret, exactly once over the life of the database (the caller
     *         prints it); empty when the key is configured or was generated before
     */
    public Optional<String> ensureAdminKey() {
        if (configured.isPresent() || store.adminKeyHash().isPresent()) {
            return Optional.empty();
        }
        String secret = secrets.next(PREFIX);
        if (!store.saveAdminKeyHashIfAbsent(KeyHash.of(secret), clock.instant())) {
            return Optional.empty(); // another instance generated one first
        }
        LOG.info("generated the admin key ({}...)", PREFIX);
        return Optional.of(secret);
    }

    /** Whether {@code presented} is the admin key; compared by hash, in constant time. */
    public boolean isAdmin(String presented) {
        Optional<KeyHash> expected = configured.isPresent() ? configured : store.adminKeyHash();
        // Hashing first makes the comparison length-independent.
        return expected.map(h -> h.matches(KeyHash.of(presented))).orElse(false);
    }
}
