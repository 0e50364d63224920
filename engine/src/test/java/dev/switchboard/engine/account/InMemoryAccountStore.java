package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** A test double of the ports, faithful to their contracts; the JDBC store is tested in the store module. */
final class InMemoryAccountStore implements AccountStore, AdminKeyStore {

    private final Map<String, User> users = new LinkedHashMap<>();
    private final Map<String, PasswordHash> passwords = new HashMap<>();
    private final Map<String, StoredKey> keysById = new LinkedHashMap<>();
    private final List<LedgerEntry> ledger = new ArrayList<>();
    private KeyHash adminKey;
    final AtomicInteger hashLookups = new AtomicInteger();

    @Override
    public synchronized void createUser(User user, Optional<PasswordHash> passwordHash) {
        if (users.containsKey(user.id())) {
            throw AccountException.conflict("id", "id taken");
        }
        for (User u : users.values()) {
            if (u.name().equals(user.name())) {
                throw AccountException.conflict("name", "name taken");
            }
            if (u.email().isPresent() && u.email().equals(user.email())) {
                throw AccountException.conflict("email", "email taken");
            }
        }
        users.put(user.id(), user);
        passwordHash.ifPresent(h -> passwords.put(user.id(), h));
        if (user.balanceNanos() > 0) {
            ledger.add(new LedgerEntry(Ids.next("led", user.createdAt()), user.id(), LedgerEntry.Kind.CREDIT,
                    user.balanceNanos(), user.balanceNanos(), Optional.empty(), Optional.of("initial balance"),
                    user.createdAt()));
        }
    }

    @Override
    public synchronized Optional<User> findUser(String userId) {
        return Optional.ofNullable(users.get(userId));
    }

    @Override
    public synchronized Optional<User> findUserByName(String name) {
        return users.values().stream().filter(u -> u.name().equals(name)).findFirst();
    }

    @Override
    public synchronized List<User> users(int offset, int limit) {
        return users.values().stream().skip(offset).limit(limit).toList();
    }

    @Override
    public synchronized long countUsers() {
        return users.size();
    }

    @Override
    public synchronized boolean hasUsers() {
        return !users.isEmpty();
    }

    @Override
    public synchronized Optional<PasswordHash> passwordHash(String userId) {
        return Optional.ofNullable(passwords.get(userId));
    }

    @Override
    public synchronized LedgerEntry addCredit(String userId, long amountNanos, Optional<String> note,
                                              Optional<String> idempotencyKey, Instant at) {
        if (idempotencyKey.isPresent()) {
            throw new UnsupportedOperationException("idempotent credits are tested on the JDBC store");
        }
        User u = findUser(userId).orElseThrow(() -> AccountException.notFound("no user " + userId));
        long balance = Math.addExact(u.balanceNanos(), amountNanos);
        users.put(userId, new User(u.id(), u.name(), u.email(), u.plan(), balance, u.createdAt(), u.planExpiresAt()));
        LedgerEntry e = new LedgerEntry(Ids.next("led", at), userId, LedgerEntry.Kind.CREDIT, amountNanos, balance,
                Optional.empty(), note, at);
        ledger.add(e);
        return e;
    }

    @Override
    public synchronized boolean setPlan(String userId, String plan, Optional<Instant> expiresAt) {
        User u = users.get(userId);
        if (u == null) {
            return false;
        }
        users.put(userId, new User(u.id(), u.name(), u.email(), plan, u.balanceNanos(), u.createdAt(), expiresAt));
        return true;
    }

    @Override
    public synchronized List<LedgerEntry> ledger(String userId, int limit) {
        return ledger.stream().filter(e -> e.userId().equals(userId))
                .sorted(Comparator.comparing(LedgerEntry::id).reversed()).limit(limit).toList();
    }

    @Override
    public synchronized void createKey(ApiKey key, KeyHash hash) {
        if (!users.containsKey(key.userId())) {
            throw AccountException.notFound("no user " + key.userId());
        }
        if (keysById.containsKey(key.id()) || keysById.values().stream().anyMatch(k -> k.hash().equals(hash))) {
            throw AccountException.conflict("id", "key exists");
        }
        keysById.put(key.id(), new StoredKey(key, hash));
    }

    @Override
    public Optional<StoredKey> findKeyByHash(KeyHash hash) {
        hashLookups.incrementAndGet();
        beforeHashLookup.run();
        synchronized (this) {
            return keysById.values().stream().filter(k -> k.hash().equals(hash)).findFirst();
        }
    }

    /** Runs (outside the store's lock) at each key lookup: tests hold a lookup in flight with it. */
    volatile Runnable beforeHashLookup = () -> { };

    @Override
    public synchronized Optional<ApiKey> findKey(String keyId) {
        return Optional.ofNullable(keysById.get(keyId)).map(StoredKey::key);
    }

    @Override
    public synchronized boolean updateKey(ApiKey key) {
        StoredKey s = keysById.get(key.id());
        if (s == null) {
            return false;
        }
        ApiKey k = s.key();
        keysById.put(key.id(), new StoredKey(k.withSettings(key.name(), key.scope(), key.limits(), key.expiresAt()), s.hash()));
        return true;
    }

    @Override
    public synchronized List<ApiKey> keysOf(String userId) {
        return keysById.values().stream().map(StoredKey::key).filter(k -> k.userId().equals(userId)).toList();
    }

    @Override
    public synchronized boolean revokeKey(String keyId, Instant at) {
        StoredKey s = keysById.get(keyId);
        if (s == null) {
            return false;
        }
        ApiKey k = s.key();
        if (!k.revoked()) {
            keysById.put(keyId, new StoredKey(new ApiKey(k.id(), k.userId(), k.name(), k.prefix(), k.scope(), k.limits(),
                    k.expiresAt(), Optional.of(at), k.createdAt()), s.hash()));
        }
        return true;
    }

    synchronized List<StoredKey> allKeys() {
        return List.copyOf(keysById.values());
    }

    @Override
    public synchronized Optional<KeyHash> adminKeyHash() {
        return Optional.ofNullable(adminKey);
    }

    @Override
    public synchronized boolean saveAdminKeyHashIfAbsent(KeyHash hash, Instant at) {
        if (adminKey != null) {
            return false;
        }
        adminKey = hash;
        return true;
    }
}
