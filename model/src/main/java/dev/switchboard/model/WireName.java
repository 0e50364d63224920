package dev.switchboard.model;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An enum whose constants are named on the wire (in requests, config, storage) by their Java name in lower
 * case, words joined by {@link #separator()}: {@code LAST_USER} is {@code last_user}, {@code STREAMABLE_HTTP}
 * with {@code '-'} is {@code streamable-http}. One rule for naming such constants and for looking them up.
 */
public interface WireName {
    /** The constant's Java name (what {@link Enum#name()} gives). */
    String name();

    /** What joins the words of a wire name: {@code '_'} unless the format writes {@code '-'}. */
    default char separator() {
        return '_';
    }

    /** The constant's name on the wire. */
    default String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', separator());
    }

    /** The constant of {@code values} named {@code wire}, if any (case matters, as on the wire). */
    static <E extends WireName> Optional<E> find(E[] values, String wire) {
        return Arrays.stream(values).filter(v -> v.wire().equals(wire)).findFirst();
    }

    /**
     * The constant of {@code values} named {@code wire}; otherwise a 400 naming {@code field} that lists the
     * names it takes ({@code expected a, b or c, got 'x'}).
     */
    static <E extends WireName> E parse(E[] values, String wire, String field) {
        return find(values, wire).orElseThrow(() -> GatewayError.invalid(field, field + ": expected "
                + alternatives(values) + ", got '" + wire + "'").toException());
    }

    /** The wire names of {@code values} as a person would list them: {@code a, b or c}. */
    private static String alternatives(WireName[] values) {
        List<String> names = Arrays.stream(values).map(WireName::wire).toList();
        return names.size() == 1 ? names.getFirst()
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
    }
}
