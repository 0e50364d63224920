package dev.switchboard.server.admin;

import dev.switchboard.engine.billing.UsageQuery;
import dev.switchboard.engine.billing.UsageTotal;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The query parameters of the usage views, read strictly (a bad value is a 400 naming the parameter):
 * {@code from} and {@code to} as ISO-8601 instants or UTC dates ({@code to=2026-11-24} includes that whole
 * day), {@code page} (zero-based) and {@code limit} (1 to {@value UsageQuery#MAX_LIMIT}, default
 * {@value #DEFAULT_LIMIT}), and {@code group_by} ({@code day}, {@code model} or {@code key}).
 */
public final class UsageFilters {
    public static final int DEFAULT_LIMIT = 100;

    private UsageFilters() {
    }

    /** The query of a usage view; {@code user} and {@code key} as given by the caller of this method. */
    public static UsageQuery query(Exchange ex, Optional<String> user, Optional<String> key) {
        return query(ex::query, user, key);
    }

    /** The same from named parameters however they arrived (the CLI twin's options). */
    public static UsageQuery query(Function<String, Optional<String>> params, Optional<String> user, Optional<String> key) {
        int page = integer(params, "page", 0);
        int limit = integer(params, "limit", DEFAULT_LIMIT);
        if (page < 0) {
            throw GatewayError.invalid("page", "page: expected 0 or more, got " + page).toException();
        }
        if (limit < 1 || limit > UsageQuery.MAX_LIMIT) {
            throw GatewayError.invalid("limit", "limit: expected 1 to " + UsageQuery.MAX_LIMIT + ", got " + limit).toException();
        }
        if ((long) page * limit > Integer.MAX_VALUE) {
            throw GatewayError.invalid("page", "page: too large for this limit").toException();
        }
        Optional<Instant> from = time(params, "from", false);
        Optional<Instant> to = time(params, "to", true);
        if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
            throw GatewayError.invalid("to", "to: expected a time after from").toException();
        }
        return new UsageQuery(user, key, text(params, "model"), from, to, page * limit, limit);
    }

    /** {@code group_by}, when given. */
    public static Optional<UsageTotal.GroupBy> groupBy(Exchange ex) {
        return groupBy(ex::query);
    }

    public static Optional<UsageTotal.GroupBy> groupBy(Function<String, Optional<String>> params) {
        return text(params, "group_by").map(g -> switch (g.toLowerCase(Locale.ROOT)) {
            case "day" -> UsageTotal.GroupBy.DAY;
            case "model" -> UsageTotal.GroupBy.MODEL;
            case "key" -> UsageTotal.GroupBy.KEY;
            default -> throw GatewayError.invalid("group_by", "group_by: expected day, model or key, got \"" + g + "\"")
                    .toException();
        });
    }

    /** A non-blank query parameter. */
    public static Optional<String> text(Exchange ex, String name) {
        return text(ex::query, name);
    }

    private static Optional<String> text(Function<String, Optional<String>> params, String name) {
        return params.apply(name).map(String::strip).filter(s -> !s.isEmpty());
    }

    private static int integer(Function<String, Optional<String>> params, String name, int absent) {
        Optional<String> raw = text(params, name);
        if (raw.isEmpty()) {
            return absent;
        }
        try {
            return Integer.parseInt(raw.get());
        } catch (NumberFormatException e) {
            throw GatewayError.invalid(name, name + ": expected a whole number").toException();
        }
    }

    private static Optional<Instant> time(Function<String, Optional<String>> params, String name, boolean endOfDay) {
        return text(params, name).map(t -> {
            try {
                return Instant.parse(t);
            } catch (DateTimeParseException notInstant) {
                try {
                    LocalDate day = LocalDate.parse(t);
                    return (endOfDay ? day.plusDays(1) : day).atStartOfDay(ZoneOffset.UTC).toInstant();
                } catch (DateTimeParseException notDate) {
                    throw GatewayError.invalid(name, name + ": expected an ISO-8601 instant such as 2026-11-24T00:00:00Z"
                            + " or a date such as 2026-11-24").toException();
                }
            }
        });
    }
}
