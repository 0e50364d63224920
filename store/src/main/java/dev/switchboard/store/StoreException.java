package dev.switchboard.store;

/**
 * The database could not do what was asked: unreachable, misconfigured, a migration failed, or a
 * statement failed for a reason the caller cannot fix by changing its request. The message says
 * which operation failed and never contains a password.
 */
public final class StoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
