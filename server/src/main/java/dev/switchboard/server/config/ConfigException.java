package dev.switchboard.server.config;

import java.util.List;

/**
 * The configuration cannot be used. Carries every problem found, sorted by source and line, so that an
 * operator fixes them all in one go; the message lists them one per line, each as
 * {@code file:line:column: what is wrong (what was expected / how to fix it)}. Messages never contain
 * secret values (provider keys, the admin key).
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<ConfigProblem> problems;

    public ConfigException(List<ConfigProblem> problems) {
        super(render(problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public ConfigException(ConfigProblem problem) {
        this(List.of(problem));
    }

    /** Never empty. */
    public List<ConfigProblem> problems() {
        return problems;
    }

    private static String render(List<ConfigProblem> problems) {
        if (problems.size() == 1) {
            return problems.get(0).render();
        }
        StringBuilder sb = new StringBuilder(problems.size() + " configuration errors (fix all of them, the gateway does not start half-configured):");
        for (ConfigProblem p : problems) {
            sb.append('\n').append(p.render());
        }
        return sb.toString();
    }
}
