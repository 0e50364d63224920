package dev.switchboard.testkit.it.dashboard;

import com.fasterxml.jackson.databind.JsonNode;

/** The browser run's figures as a table for the build log: page, screenshot, first paint, weight. */
final class Report {
    private Report() {
    }

    static String table(JsonNode report) {
        StringBuilder out = new StringBuilder("Dashboard pages (first contentful paint, cold cache, loopback; weight = document + assets + API answers):\n");
        out.append(String.format("  %-18s %-34s %10s %10s%n", "page", "screenshot", "paint ms", "weight KB"));
        for (JsonNode p : report.path("pages")) {
            out.append(String.format("  %-18s %-34s %10.1f %10.1f%n", p.path("page").asText(), p.path("screenshot").asText(),
                    p.path("first_paint_ms").asDouble(), p.path("weight_bytes").asLong() / 1024.0));
        }
        report.path("notes").forEach(n -> out.append("  note: ").append(n.asText()).append('\n'));
        return out.toString();
    }
}
