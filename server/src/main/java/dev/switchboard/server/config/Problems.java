package dev.switchboard.server.config;

import dev.switchboard.server.config.YamlNode.Pos;
import dev.switchboard.server.config.YamlNode.Scalar;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects problems while a whole config is checked, so that one run reports all of them instead of
 * stopping at the first. Sources sort in the order they were first reported (the operator's file before
 * the shipped catalog), problems within a source by line and column.
 */
final class Problems {
    private final List<ConfigProblem> list = new ArrayList<>();
    private final Map<String, Integer> sourceOrder = new LinkedHashMap<>();

    void add(Pos pos, String message) {
        add(new ConfigProblem(pos.source(), pos.line(), pos.column(), message));
    }

    /** Reports a problem with a scalar's value, naming the variables the value was expanded from. */
    void add(Scalar value, String message) {
        if (value.variables().isEmpty()) {
            add(value.pos(), message);
        } else {
            add(value.pos(), message + " [the value comes from " + String.join(", ",
                    value.variables().stream().map(v -> "${" + v + "}").toList()) + "]");
        }
    }

    void add(ConfigProblem problem) {
        sourceOrder.putIfAbsent(problem.source(), sourceOrder.size());
        list.add(problem);
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    int size() {
        return list.size();
    }

    /** Throws a {@link ConfigException} with every problem so far, if there is any. */
    void throwIfAny() {
        if (list.isEmpty()) {
            return;
        }
        List<ConfigProblem> sorted = new ArrayList<>(list);
        sorted.sort(Comparator.<ConfigProblem>comparingInt(p -> sourceOrder.get(p.source()))
                .thenComparingInt(ConfigProblem::line)
                .thenComparingInt(ConfigProblem::column));
        throw new ConfigException(sorted);
    }
}
