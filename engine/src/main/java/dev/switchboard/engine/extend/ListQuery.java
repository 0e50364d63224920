package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The list contract shared by the list endpoints (spec 4): {@code search} (every word must appear in the
 * name, the description or a tag, case-insensitively), {@code tags} (comma-separated, an entry matches when
 * it carries at least one), {@code page} (from 0, default 0), {@code limit} (1 to 100, default 30) and
 * {@code sort}; plugins also filter by {@code section}. Out-of-range values are a 400 naming the parameter.
 *
 * @param words    the lower-cased words of {@code search}
 * @param paged    false for the lists without pagination (characters, plugins): every match is answered
 * @param verified only entries the operator marked verified (plugins)
 */
public record ListQuery(List<String> words, List<String> tags, int page, int limit, Sort sort, Optional<String> section,
                        boolean paged, boolean verified) {
    public static final int DEFAULT_LIMIT = 30;
    public static final int MAX_LIMIT = 100;
    /** The highest page number accepted; beyond it a page could not hold anything anyway. */
    public static final int MAX_PAGE = 100_000;

    public ListQuery {
        words = List.copyOf(words);
        tags = List.copyOf(tags);
        Objects.requireNonNull(sort, "sort");
        Objects.requireNonNull(section, "section");
    }

    /** Everything, first page, default order. */
    public static final ListQuery ALL = new ListQuery(List.of(), List.of(), 0, DEFAULT_LIMIT, Sort.POPULAR, Optional.empty(),
            true, false);

    /** Reads the query parameters of a list request; {@code param} answers a parameter's raw value, if sent. */
    public static ListQuery parse(Function<String, Optional<String>> param) {
        String search = param.apply("search").orElse("");
        if (search.length() > Limits.SEARCH) {
            throw GatewayError.invalid("search", "search: expected at most " + Limits.SEARCH + " characters, got "
                    + search.length()).toException();
        }
        List<String> words = Arrays.stream(search.toLowerCase(Locale.ROOT).strip().split("\\s+"))
                .filter(w -> !w.isEmpty()).distinct().toList();
        if (words.size() > Limits.SEARCH_WORDS) {
            throw GatewayError.invalid("search", "search: expected at most " + Limits.SEARCH_WORDS + " words, got "
                    + words.size()).toException();
        }
        List<String> tags = param.apply("tags").map(Tags::ofQuery).orElse(List.of());
        int page = integer(param, "page", 0, 0, MAX_PAGE);
        int limit = integer(param, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        Sort sort = param.apply("sort").filter(s -> !s.isEmpty()).map(Sort::parse).orElse(Sort.POPULAR);
        Optional<String> section = param.apply("section").map(String::strip).filter(s -> !s.isEmpty())
                .map(s -> s.toLowerCase(Locale.ROOT));
        return new ListQuery(words, tags, page, limit, sort, section, true, false);
    }

    /** The same filters, every match at once (characters, plugins). */
    public ListQuery unpaged() {
        return new ListQuery(words, tags, 0, Integer.MAX_VALUE, sort, section, false, verified);
    }

    /** Only entries marked verified. */
    public ListQuery verifiedOnly() {
        return new ListQuery(words, tags, page, limit, sort, section, paged, true);
    }

    private static int integer(Function<String, Optional<String>> param, String name, int fallback, int min, int max) {
        Optional<String> raw = param.apply(name).map(String::strip);
        if (raw.isEmpty() || raw.get().isEmpty()) {
            return fallback;
        }
        String s = raw.get();
        if (s.matches("-?\\d{1,9}")) {
            int v = Integer.parseInt(s);
            if (v >= min && v <= max) {
                return v;
            }
        }
        throw GatewayError.invalid(name, name + ": expected a whole number from " + min + " to " + max + ", got '"
                + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "'").toException();
    }
}
