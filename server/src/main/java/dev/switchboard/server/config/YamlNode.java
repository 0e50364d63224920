package dev.switchboard.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A parsed YAML value that remembers where it was written, so that every config error can name the file,
 * the line and the column. Scalars keep their source text: numbers and prices are parsed from that text,
 * never from a YAML-resolved double or a YAML 1.1 guess (so {@code 0.15} stays exact and {@code 1:30} is
 * not silently read as 90).
 */
sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Sequence, YamlNode.Mapping {

    Pos pos();

    /** What the node is, for "expected X, got Y" messages. */
    String kind();

    /** A position in a config source; {@code line} and {@code column} count from 1. */
    record Pos(String source, int line, int column) {
        public Pos {
            Objects.requireNonNull(source, "source");
        }
    }

    /**
     * A scalar's text. {@code isNull} is true for YAML null ({@code ~}, {@code null} or nothing), which
     * the binder treats as "not given". {@code variables} names the {@code ${VAR}}s the text was expanded
     * from, so an error about the value can say where it came from.
     */
    record Scalar(String text, boolean isNull, Pos pos, List<String> variables) implements YamlNode {
        public Scalar {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(pos, "pos");
            variables = List.copyOf(variables);
        }

        Scalar(String text, Pos pos) {
            this(text, false, pos, List.of());
        }

        @Override
        public String kind() {
            return isNull ? "nothing (null)" : "a single value";
        }
    }

    record Sequence(List<YamlNode> items, Pos pos) implements YamlNode {
        public Sequence {
            items = List.copyOf(items);
            Objects.requireNonNull(pos, "pos");
        }

        @Override
        public String kind() {
            return "a list";
        }
    }

    /** One {@code key: value} pair; {@code keyPos} is where the key was written. */
    record Entry(String key, Pos keyPos, YamlNode value) {
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(keyPos, "keyPos");
            Objects.requireNonNull(value, "value");
        }
    }

    /** A mapping with unique keys (the reader rejects duplicates), in source order. */
    record Mapping(List<Entry> entries, Pos pos) implements YamlNode {
        public Mapping {
            entries = List.copyOf(entries);
            Objects.requireNonNull(pos, "pos");
        }

        Optional<Entry> get(String key) {
            for (Entry e : entries) {
                if (e.key().equals(key)) {
                    return Optional.of(e);
                }
            }
            return Optional.empty();
        }

        /** A copy with {@code key} set to {@code entry}, replacing an existing entry of that key in place. */
        Mapping with(Entry entry) {
            List<Entry> copy = new ArrayList<>(entries);
            for (int i = 0; i < copy.size(); i++) {
                if (copy.get(i).key().equals(entry.key())) {
                    copy.set(i, entry);
                    return new Mapping(copy, pos);
                }
            }
            copy.add(entry);
            return new Mapping(copy, pos);
        }

        @Override
        public String kind() {
            return "a map";
        }
    }
}
