package dev.switchboard.engine.limits;

/** A limit store could not be reached or did not answer in time; the message says what failed, without secrets. */
public final class LimitStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LimitStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
