package dev.switchboard.testkit.it.conformance;

import java.util.List;
import java.util.Optional;

/**
 * What one cell came to.
 *
 * @param failures   what was wrong (empty when the cell passed; for a cell that was not run, why not)
 * @param impossible the documented impossibility covering the cell, if any
 * @param ran        whether a request was sent (a client format that cannot ask for the feature sends none)
 */
record Outcome(Cell cell, List<String> failures, Optional<Impossibility> impossible, boolean ran) {

    Outcome {
        failures = List.copyOf(failures);
    }

    boolean passed() {
        return ran && failures.isEmpty();
    }

    /** Whether the run must fail for this cell: a failure nobody documented, or a documented one that passes. */
    boolean breaksTheBuild() {
        return impossible.isEmpty() ? !passed() : passed();
    }
}
