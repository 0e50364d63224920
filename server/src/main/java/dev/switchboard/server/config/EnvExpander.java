package dev.switchboard.server.config;

import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Mapping;
import dev.switchboard.server.config.YamlNode.Scalar;
import dev.switchboard.server.config.YamlNode.Sequence;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Expands environment variables in every scalar value of a tree (keys are names, never expanded):
 * <ul>
 *   <li>{@code ${VAR}}: the variable's value; a problem when it is unset (an empty value is kept).</li>
 *   <li>{@code ${VAR:-default}}: the default when the variable is unset or empty, as in a POSIX shell.
 *       The default may itself contain {@code ${...}}.</li>
 *   <li>{@code $${}: a literal {@code ${}; any other {@code $} is kept as is.</li>
 * </ul>
 * Expansion happens after YAML parsing, so a value can never inject YAML structure.
 */
final class EnvExpander {
    private final Map<String, String> env;

    EnvExpander(Map<String, String> env) {
        this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
    }

    /** A copy of {@code node} with every scalar value expanded; each failure is reported and leaves the text as written. */
    YamlNode expand(YamlNode node, Problems problems) {
        return switch (node) {
            case Scalar s -> expandScalar(s, problems);
            case Sequence s -> new Sequence(s.items().stream().map(i -> expand(i, problems)).toList(), s.pos());
            case Mapping m -> {
                List<Entry> entries = new ArrayList<>();
                for (Entry e : m.entries()) {
                    entries.add(new Entry(e.key(), e.keyPos(), expand(e.value(), problems)));
                }
                yield new Mapping(entries, m.pos());
            }
        };
    }

    Mapping expand(Mapping root, Problems problems) {
        return (Mapping) expand((YamlNode) root, problems);
    }

    private Scalar expandScalar(Scalar s, Problems problems) {
        if (s.isNull() || s.text().indexOf('$') < 0) {
            return s;
        }
        Set<String> used = new LinkedHashSet<>();
        try {
            String text = expand(s.text(), used);
            return new Scalar(text, false, s.pos(), List.copyOf(used));
        } catch (ExpansionError e) {
            problems.add(s.pos(), e.getMessage());
            return s;
        }
    }

    /** Expands one string; {@code used} collects the variable names read. */
    String expand(String text, Set<String> used) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '$' && text.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (c == '$' && text.startsWith("${", i)) {
                int close = matchingBrace(text, i + 2);
                if (close < 0) {
                    throw new ExpansionError("unclosed '${' (write ${NAME} or ${NAME:-default}; $${ gives a literal ${)");
                }
                out.append(substitute(text.substring(i + 2, close), used));
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private String substitute(String inner, Set<String> used) {
        int sep = inner.indexOf(":-");
        String name = sep < 0 ? inner : inner.substring(0, sep);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new ExpansionError("'${" + inner + "}' is not a variable reference (names are letters, digits and _, "
                    + "e.g. ${OPENAI_API_KEY} or ${PORT:-8080})");
        }
        used.add(name);
        String value = env.get(name);
        if (sep >= 0) {
            return value == null || value.isEmpty() ? expand(inner.substring(sep + 2), used) : value;
        }
        if (value == null) {
            throw new ExpansionError("environment variable " + name + " is not set (set it, or give a default: ${"
                    + name + ":-value})");
        }
        return value;
    }

    /** Index of the '}' closing a '${' whose content starts at {@code from}, counting nested '${'. */
    private static int matchingBrace(String text, int from) {
        int depth = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                depth++;
                i++;
            } else if (c == '}') {
                if (depth == 0) {
                    return i;
                }
                depth--;
            }
        }
        return -1;
    }

    /** A failed expansion; the message says what was expected. */
    static final class ExpansionError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ExpansionError(String message) {
            super(message, null, false, false);
        }
    }
}
