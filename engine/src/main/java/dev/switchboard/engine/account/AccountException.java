package dev.switchboard.engine.account;

import java.util.Objects;
import java.util.Optional;

/**
 * A refused account operation, shaped so an HTTP or CLI edge can answer without parsing text:
 * {@link Kind#NOT_FOUND} maps to 404, {@link Kind#INVALID} to 400 and {@link Kind#CONFLICT} to 409,
 * and {@link #field()} names the offending request field (as spelled in the admin API) when there
 * is one. The message is safe to show to the caller: it never contains a secret.
 */
public final class AccountException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the operation was refused. */
    public enum Kind {
        /** The user or key named by the request does not exist. */
        NOT_FOUND,
        /** A request field has a value the operation cannot accept; {@link #field()} names it. */
        INVALID,
        /** The request collides with existing state (a name or e-mail already taken). */
        CONFLICT
    }

    private final Kind kind;
    private final String field;

    private AccountException(Kind kind, String field, String message) {
        super(Objects.requireNonNull(message, "message"));
        this.kind = Objects.requireNonNull(kind, "kind");
        this.field = field;
    }

    /** The thing looked up does not exist; {@code message} says what was looked for. */
    public static AccountException notFound(String message) {
        return new AccountException(Kind.NOT_FOUND, null, message);
    }

    /** {@code field} has an unacceptable value; {@code message} says what was expected. */
    public static AccountException invalid(String field, String message) {
        return new AccountException(Kind.INVALID, Objects.requireNonNull(field, "field"), message);
    }

    /** {@code field} collides with existing state; {@code message} says with what. */
    public static AccountException conflict(String field, String message) {
        return new AccountException(Kind.CONFLICT, Objects.requireNonNull(field, "field"), message);
    }

    public Kind kind() {
        return kind;
    }

    /** The request field at fault; always present for INVALID and CONFLICT, empty for NOT_FOUND. */
    public Optional<String> field() {
        return Optional.ofNullable(field);
    }
}
