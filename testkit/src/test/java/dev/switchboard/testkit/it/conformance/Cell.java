package dev.switchboard.testkit.it.conformance;

/** One cell of the matrix. */
record Cell(Mode mode, Client client, Upstream upstream, Feature feature) {

    @Override
    public String toString() {
        return client.title + " -> " + upstream.title + ", " + feature.id() + ", " + mode.title().toLowerCase(java.util.Locale.ROOT);
    }
}
