package dev.switchboard.testkit.it.conformance;

/**
 * Cells that cannot pass by nature, and why: a client format with no way to ask for a feature, or an
 * upstream without it. A {@code null} client or upstream matches every one.
 */
record Impossibility(Client client, Upstream upstream, Feature feature, String reason) {

    boolean covers(Cell cell) {
        return (client == null || client == cell.client()) && (upstream == null || upstream == cell.upstream())
                && feature == cell.feature();
    }
}
