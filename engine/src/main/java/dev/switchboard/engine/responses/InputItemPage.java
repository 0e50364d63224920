package dev.switchboard.engine.responses;

import dev.switchboard.model.GatewayError;
import java.util.Objects;
import java.util.Optional;

/**
 * The query of {@code GET /v1/responses/{id}/input_items}: items after the item {@code after} (in the
 * chosen order), at most {@code limit} (1 to 100, default 20), newest first unless {@code order} is
 * {@code asc}.
 */
public record InputItemPage(Optional<String> after, int limit, boolean ascending) {
    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    public InputItemPage {
        Objects.requireNonNull(after, "after");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT);
        }
    }

    /**
     * Reads the query parameters as given.
     *
     * @throws dev.switchboard.model.GatewayException 400 naming {@code limit} or {@code order} when invalid
     */
    public static InputItemPage of(Optional<String> after, Optional<String> limit, Optional<String> order) {
        int n = DEFAULT_LIMIT;
        if (limit.isPresent()) {
            try {
                n = Integer.parseInt(limit.get().trim());
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || n > MAX_LIMIT) {
                throw GatewayError.invalid("limit", "`limit` must be an integer between 1 and " + MAX_LIMIT + "; got \""
                        + limit.get() + "\".").toException();
            }
        }
        String o = order.orElse("desc");
        if (!o.equals("asc") && !o.equals("desc")) {
            throw GatewayError.invalid("order", "`order` must be \"asc\" or \"desc\"; got \"" + o + "\".").toException();
        }
        return new InputItemPage(after.filter(s -> !s.isEmpty()), n, o.equals("asc"));
    }
}
