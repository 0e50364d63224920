package dev.switchboard.server.http;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the edge knows about paths independently of the method: which methods a path has (for {@code 405}
 * with {@code Allow}, and for {@code OPTIONS}), and in which wire format its errors are written (for
 * failures the server library reports before any route runs, such as an oversized body). Built from the
 * route list, so a route added later gets all of this without being named here.
 *
 * <p>Patterns are those of {@link Route}: literal segments, {@code {name}} for one segment, and a final
 * {@code *} for any rest of the path. Every route under {@code /admin/} has a {@link Guard}: the table is refused
 * otherwise, so an admin route cannot be added without saying who may call it.
 */
final class RouteTable {
    private static final String ADMIN_PREFIX = "/admin/";

    private final List<Route> routes;
    private final List<List<String>> patterns;

    /** @throws IllegalArgumentException when a route under {@code /admin/} has no guard */
    RouteTable(List<Route> routes) {
        for (Route r : routes) {
            if (r.pattern().startsWith(ADMIN_PREFIX) && r.guard() == Guard.OPEN) {
                throw new IllegalArgumentException(r.method() + " " + r.pattern() + " is an admin route without a guard");
            }
        }
        this.routes = List.copyOf(routes);
        this.patterns = this.routes.stream().map(r -> segments(r.pattern())).toList();
    }

    /** The methods some route serves on {@code path}, in route order; empty for an unknown path. */
    Set<String> methods(String path) {
        Set<String> out = new LinkedHashSet<>();
        List<String> segments = segments(path);
        for (int i = 0; i < routes.size(); i++) {
            if (matches(patterns.get(i), segments)) {
                out.add(routes.get(i).method());
            }
        }
        return out;
    }

    /** The first route whose pattern matches {@code path}, whatever its method. */
    Optional<Route> anyRoute(String path) {
        List<String> segments = segments(path);
        for (int i = 0; i < routes.size(); i++) {
            if (matches(patterns.get(i), segments)) {
                return Optional.of(routes.get(i));
            }
        }
        return Optional.empty();
    }

    static boolean matches(List<String> pattern, List<String> path) {
        if (path.contains(".") || path.contains("..")) {
            return false; // never a route of ours, whatever the server makes of it
        }
        for (int i = 0; i < pattern.size(); i++) {
            String p = pattern.get(i);
            if (p.equals("*") && i == pattern.size() - 1) {
                return path.size() > i;
            }
            if (i >= path.size()) {
                return false;
            }
            boolean param = p.startsWith("{") && p.endsWith("}");
            if (!param && !p.equals(path.get(i))) {
                return false;
            }
        }
        return pattern.size() == path.size();
    }

    private static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}
