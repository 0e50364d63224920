package dev.switchboard.server.config;

import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Mapping;
import dev.switchboard.server.config.YamlNode.Pos;
import dev.switchboard.server.config.YamlNode.Scalar;
import dev.switchboard.server.config.YamlNode.Sequence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Typed, reporting access to one YAML mapping (a provider, a model, a pricing table ...). Every getter
 * returns empty both when the key is absent and when its value is wrong, and in the second case has
 * already reported the problem with the place, what was expected and an example, so binders can carry
 * on and find the next problem. A YAML null ({@code key:} with nothing, or {@code ~}) counts as absent.
 */
final class YamlFields {
    private final Mapping map;
    private final Pos owner;
    private final String where;
    private final Problems problems;

    /**
     * @param owner where the mapping is named (its key), for "missing key" problems
     * @param where what the mapping is, as a noun phrase ("provider 'openai'"); empty at the top level
     */
    YamlFields(Mapping map, Pos owner, String where, Problems problems) {
        this.map = map;
        this.owner = owner;
        this.where = where;
        this.problems = problems;
    }

    /** The fields of {@code entry}'s value, or empty (reported) when it is not a mapping. */
    static Optional<YamlFields> of(Entry entry, String where, String example, Problems problems) {
        if (entry.value() instanceof Mapping m) {
            return Optional.of(new YamlFields(m, entry.keyPos(), where, problems));
        }
        problems.add(entry.keyPos(), where + " must be a map of settings, got " + entry.value().kind() + " (e.g. " + example + ")");
        return Optional.empty();
    }

    Mapping mapping() {
        return map;
    }

    String where() {
        return where;
    }

    Problems problems() {
        return problems;
    }

    /** Reports every key not in {@code allowed}, with the list of allowed keys and the closest one. */
    void allowOnly(List<String> allowed) {
        for (Entry e : map.entries()) {
            if (!allowed.contains(e.key())) {
                problems.add(e.keyPos(), "unknown key '" + e.key() + "' " + (where.isEmpty() ? "at the top level" : "in " + where)
                        + " (expected one of: " + String.join(", ", allowed) + Suggestions.hint(e.key(), allowed) + ")");
            }
        }
    }

    /** {@code 'key'} or {@code 'key' of provider 'x'}, the subject of a problem message. */
    String label(String key) {
        return where.isEmpty() ? "'" + key + "'" : "'" + key + "' of " + where;
    }

    Optional<Entry> entry(String key) {
        return map.get(key).filter(e -> !(e.value() instanceof Scalar s && s.isNull()));
    }

    boolean has(String key) {
        return entry(key).isPresent();
    }

    /** Reports that a required key is absent, at the place that names this mapping. */
    void missing(String key, String fix) {
        problems.add(owner, (where.isEmpty() ? "the config" : where) + " has no '" + key + "' (" + fix + ")");
    }

    Optional<Scalar> scalar(String key, String example) {
        return value(key, Scalar.class, "a single value", example);
    }

    /** The value under {@code key} when it is a {@code type}; another kind of value is reported as "must be {@code what}". */
    private <T extends YamlNode> Optional<T> value(String key, Class<T> type, String what, String example) {
        Optional<Entry> e = entry(key);
        if (e.isEmpty()) {
            return Optional.empty();
        }
        if (type.isInstance(e.get().value())) {
            return Optional.of(type.cast(e.get().value()));
        }
        problems.add(e.get().keyPos(), label(key) + " must be " + what + ", got " + e.get().value().kind()
                + " (e.g. " + example + ")");
        return Optional.empty();
    }

    Optional<String> string(String key, String example) {
        return scalar(key, example).map(Scalar::text);
    }

    Optional<Boolean> bool(String key) {
        return word(key, key + ": true", Map.of("true", true, "false", false), "true or false");
    }

    /**
     * One of a fixed set of words, in any case: {@code words} maps each accepted word (lower case) to its value;
     * any other value is reported as "must be {@code expected}".
     */
    <T> Optional<T> word(String key, String example, Map<String, T> words, String expected) {
        return scalar(key, example).flatMap(s -> {
            Optional<T> v = Optional.ofNullable(words.get(s.text().trim().toLowerCase(Locale.ROOT)));
            if (v.isEmpty()) {
                problems.add(s, label(key) + " must be " + expected + ", got '" + s.text() + "'");
            }
            return v;
        });
    }

    /** A duration such as {@code 30s} or {@code 168h} ({@link Durations}); a value that is not one is reported. */
    Optional<Duration> duration(String key, String example) {
        return scalar(key, example).flatMap(s -> {
            Optional<Duration> d = Durations.parse(s.text());
            if (d.isEmpty()) {
                problems.add(s, label(key) + " is not a duration: '" + s.text() + "' (expected " + Durations.EXPECTED + ")");
            }
            return d;
        });
    }

    /** A whole number in [min, max]; underscores between digits are allowed ({@code 200_000}). */
    OptionalLong integer(String key, long min, long max, String example) {
        Optional<Scalar> s = scalar(key, example);
        if (s.isEmpty()) {
            return OptionalLong.empty();
        }
        String t = s.get().text().trim();
        if (t.matches("-?\\d[\\d_]*")) {
            try {
                long v = Long.parseLong(t.replace("_", ""));
                if (v >= min && v <= max) {
                    return OptionalLong.of(v);
                }
            } catch (NumberFormatException ignored) {
                // too many digits: reported below like any other out-of-range value
            }
        }
        problems.add(s.get(), label(key) + " must be a whole number from " + min + " to " + max + ", got '" + t + "' (e.g. "
                + example + ")");
        return OptionalLong.empty();
    }

    /** The nested mapping under {@code key}. */
    Optional<YamlFields> map(String key, String nestedWhere, String example) {
        return entry(key).flatMap(e -> of(e, nestedWhere, example, problems));
    }

    /**
     * The nested mapping under {@code key} with its keys checked against {@code allowed} (each unknown one reported),
     * or empty without the key or when its value is not a mapping (reported).
     */
    Optional<YamlFields> section(String key, String nestedWhere, String example, List<String> allowed) {
        Optional<YamlFields> f = map(key, nestedWhere, example);
        f.ifPresent(s -> s.allowOnly(allowed));
        return f;
    }

    /** A section of the top level, named {@code 'key'} in problems. */
    Optional<YamlFields> section(String key, String example, List<String> allowed) {
        return section(key, "'" + key + "'", example, allowed);
    }

    Optional<Sequence> list(String key, String example) {
        return value(key, Sequence.class, "a list", example);
    }

    /** A list of single non-null values; a wrong item is reported and skipped. */
    Optional<List<Scalar>> scalars(String key, String example) {
        return list(key, example).map(seq -> {
            List<Scalar> out = new ArrayList<>();
            for (YamlNode item : seq.items()) {
                if (item instanceof Scalar s && !s.isNull()) {
                    out.add(s);
                } else {
                    problems.add(item.pos(), "each item of " + label(key) + " must be a single value, got " + item.kind()
                            + " (e.g. " + example + ")");
                }
            }
            return out;
        });
    }
}
