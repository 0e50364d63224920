package dev.switchboard.engine.media;

import java.net.InetAddress;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decides which resolved addresses the gateway may connect to when it fetches a URL for a caller: only
 * {@link AddressKind#PUBLIC} ones. A host is refused when ANY of its addresses is not allowed, so a name
 * that resolves to one public and one internal address cannot be used to reach the internal one.
 *
 * <p>{@link #allowingForTests} adds exact addresses (say, a loopback test server) to what is allowed. It
 * exists for tests of the fetcher's happy path against a local server; the composition root never uses
 * it, and nothing a caller sends can reach it.
 */
public final class AddressGuard {
    private final Set<InetAddress> testAllowlist;

    private AddressGuard(Set<InetAddress> testAllowlist) {
        this.testAllowlist = Set.copyOf(testAllowlist);
    }

    /** The production guard: public addresses only. */
    public static AddressGuard publicOnly() {
        return new AddressGuard(Set.of());
    }

    /** Test-only: public addresses plus exactly these ones. Never built from configuration or user input. */
    public static AddressGuard allowingForTests(Set<InetAddress> alsoAllowed) {
        return new AddressGuard(Objects.requireNonNull(alsoAllowed, "alsoAllowed"));
    }

    /** Empty when {@code address} may be connected to; otherwise the kind that forbids it. */
    public Optional<AddressKind> refusal(InetAddress address) {
        AddressKind kind = AddressKind.of(address);
        if (kind == AddressKind.PUBLIC || testAllowlist.contains(address)) {
            return Optional.empty();
        }
        return Optional.of(kind);
    }
}
