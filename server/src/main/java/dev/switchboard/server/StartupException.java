package dev.switchboard.server;

/**
 * The gateway (or a CLI command) cannot start, for a reason the operator can fix: the message is one line
 * that says what failed and what to change, and {@link #exitCode()} is the process's exit status. The
 * command line prints the message alone, never a stack trace.
 *
 * <p>Exit statuses: {@value #CONFIG} config or command-line problem, {@value #LISTEN} the listen address
 * cannot be used, {@value #DATABASE} the database cannot be reached, created or written.
 */
public final class StartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A config file or command line the gateway cannot use (picocli's own usage errors are 2 as well). */
    public static final int CONFIG = 2;
    /** The listen address is taken or not available on this machine. */
    public static final int LISTEN = 3;
    /** The database is unreachable, or the SQLite file or its directory cannot be created or written. */
    public static final int DATABASE = 4;

    private final int exitCode;

    public StartupException(int exitCode, String message, Throwable cause) {
        super(message, cause, false, false);
        this.exitCode = exitCode;
    }

    public StartupException(int exitCode, String message) {
        this(exitCode, message, null);
    }

    public int exitCode() {
        return exitCode;
    }
}
