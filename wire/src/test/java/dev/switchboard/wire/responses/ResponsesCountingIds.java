package dev.switchboard.wire.responses;

/** Deterministic ids for fixtures: {@code <prefix>_<n>}, one counter for every prefix. */
final class ResponsesCountingIds implements ResponsesIdSource {
    private int next = 1;

    @Override
    public String next(String prefix) {
        return prefix + "_" + next++;
    }
}
