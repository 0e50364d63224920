package dev.switchboard.server.config;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean ...?" for misspelt keys and names: the closest candidate within a small edit distance. */
final class Suggestions {
    private Suggestions() {
    }

    static Optional<String> closest(String wrong, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(wrong.toLowerCase(java.util.Locale.ROOT), c.toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        // Beyond a third of the word, a "suggestion" is a guess that sends people the wrong way.
        int allowed = Math.max(1, Math.min(3, wrong.length() / 3));
        return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** {@code "; did you mean 'x'?"} or nothing, to append inside an error's parenthesis. */
    static String hint(String wrong, Collection<String> candidates) {
        return closest(wrong, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    /** Optimal string alignment distance: Levenshtein plus adjacent swaps, the commonest typo. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
