package dev.switchboard.engine.account;

import java.util.Objects;

/** The outcome of presenting an API key: who is calling, or why not. */
public sealed interface Authentication {

    /** The key is known, not revoked, not expired, and its owner exists. */
    record Authenticated(Principal principal) implements Authentication {
        public Authenticated {
            Objects.requireNonNull(principal, "principal");
        }
    }

    /**
     * The key cannot be used. Every reason is a 401 to the caller (telling them more would help an
     * attacker); the reason is for the operator's logs.
     */
    record Rejected(Reason reason) implements Authentication {
        public Rejected {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Why a key was rejected. */
    enum Reason {
        /** Not shaped like a Switchboard API key at all; the store was not asked. */
        MALFORMED,
        /** Well-formed, but no such key (or its owner is gone). */
        UNKNOWN,
        REVOKED,
        EXPIRED
    }
}
