package dev.switchboard.server.config;

import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Mapping;
import dev.switchboard.server.config.YamlNode.Pos;
import dev.switchboard.server.config.YamlNode.Scalar;
import dev.switchboard.server.config.YamlNode.Sequence;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads one YAML document into a {@link YamlNode} tree with positions, using SnakeYAML's node API
 * ({@code compose}), which keeps line numbers and never instantiates classes. Anchors, aliases and merge
 * keys ({@code <<: *defaults}) work; duplicate keys, non-string keys and recursive aliases are problems.
 * A syntax error stops the read (nothing after it can be trusted) and is thrown at once.
 */
final class YamlReader {
    private YamlReader() {
    }

    /**
     * The root mapping of {@code text}. An empty document is an empty mapping positioned at line 1.
     *
     * @throws ConfigException on a syntax error, or when the root is not a mapping
     */
    static Mapping read(String text, String source, Problems problems) {
        Node root;
        try {
            root = new Yaml(options()).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            throw new ConfigException(syntaxProblem(e, source));
        } catch (YAMLException e) {
            throw new ConfigException(new ConfigProblem(source, 0, 0, "cannot read YAML: " + e.getMessage()));
        }
        if (root == null) {
            return new Mapping(List.of(), new Pos(source, 1, 1));
        }
        YamlNode tree = new Converter(source, problems).convert(root);
        if (tree instanceof Mapping m) {
            return m;
        }
        throw new ConfigException(new ConfigProblem(source, tree.pos().line(), tree.pos().column(),
                "the config must be a map of settings (listen:, database:, providers:, models: ...), got " + tree.kind()));
    }

    private static LoaderOptions options() {
        LoaderOptions o = new LoaderOptions();
        o.setMergeOnCompose(true);
        // Small limits: a config file has no business holding an alias bomb or a deep nest.
        o.setMaxAliasesForCollections(100);
        o.setNestingDepthLimit(50);
        o.setAllowRecursiveKeys(false);
        o.setCodePointLimit(4 * 1024 * 1024);
        return o;
    }

    private static ConfigProblem syntaxProblem(MarkedYAMLException e, String source) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String what = e.getProblem() != null ? e.getProblem() : "invalid YAML";
        String context = e.getContext() != null ? " (" + e.getContext().trim() + ")" : "";
        int line = mark == null ? 0 : mark.getLine() + 1;
        int column = mark == null ? 0 : mark.getColumn() + 1;
        return new ConfigProblem(source, line, column, "YAML syntax error: " + what + context
                + "; check indentation, quotes and brackets around this place");
    }

    private static Pos pos(String source, Node node) {
        Mark m = node.getStartMark();
        return new Pos(source, m.getLine() + 1, m.getColumn() + 1);
    }

    /** One conversion; remembers the nodes on the current path to catch aliases that contain themselves. */
    private static final class Converter {
        private final String source;
        private final Problems problems;
        private final Set<Node> path = Collections.newSetFromMap(new IdentityHashMap<>());

        Converter(String source, Problems problems) {
            this.source = source;
            this.problems = problems;
        }

        YamlNode convert(Node node) {
            if (!path.add(node)) {
                problems.add(pos(source, node), "an alias refers to a value that contains it (remove the recursive *alias)");
                return new Scalar("", true, pos(source, node), List.of());
            }
            try {
                return switch (node) {
                    case ScalarNode s -> new Scalar(s.getValue(), isNull(s), pos(source, s), List.of());
                    case SequenceNode s -> {
                        List<YamlNode> items = new ArrayList<>();
                        for (Node item : s.getValue()) {
                            items.add(convert(item));
                        }
                        yield new Sequence(items, pos(source, s));
                    }
                    case MappingNode m -> mapping(m);
                    default -> throw new IllegalStateException("unknown node " + node.getNodeId());
                };
            } finally {
                path.remove(node);
            }
        }

        private Mapping mapping(MappingNode m) {
            List<Entry> entries = new ArrayList<>();
            Map<String, Pos> seen = new HashMap<>();
            for (NodeTuple t : m.getValue()) {
                Node k = t.getKeyNode();
                Pos keyPos = pos(source, k);
                if (!(k instanceof ScalarNode ks) || isNull(ks)) {
                    problems.add(keyPos, "a key must be a plain name, got " + (k instanceof ScalarNode ? "nothing" : "a " + k.getNodeId()));
                    continue;
                }
                Pos first = seen.putIfAbsent(ks.getValue(), keyPos);
                if (first != null) {
                    problems.add(keyPos, "duplicate key '" + ks.getValue() + "' (first given at line " + first.line()
                            + "; keep one of them)");
                    continue;
                }
                entries.add(new Entry(ks.getValue(), keyPos, convert(t.getValueNode())));
            }
            return new Mapping(entries, pos(source, m));
        }

        private static boolean isNull(ScalarNode s) {
            return Tag.NULL.equals(s.getTag());
        }
    }
}
