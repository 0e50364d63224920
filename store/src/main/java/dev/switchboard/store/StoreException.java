package dev.switchboard.store;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

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

    /**
     * Whether the database was busy or out of reach (no connection within the timeout, connection refused or
     * lost) rather than refusing the statement: the same request may well succeed a moment later.
     */
    public boolean busyOrUnreachable() {
        for (Throwable t = getCause(); t != null; t = t.getCause()) {
            if (t instanceof SQLTransientException || t instanceof SQLRecoverableException
                    || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException e && e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                return true;
            }
            if (t instanceof SQLiteException e && (e.getResultCode() == SQLiteErrorCode.SQLITE_BUSY
                    || e.getResultCode() == SQLiteErrorCode.SQLITE_LOCKED)) {
                return true;
            }
        }
        return false;
    }
}
