package dev.switchboard.engine.limits;

import java.time.Duration;

/** A wait in words a person reads at a glance: {@code 12 s}, {@code 4 min 5 s}, {@code 3 h 2 min}. */
final class Waits {
    private Waits() {
    }

    static String words(Duration d) {
        long s = (d.toMillis() + 999) / 1000;
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
        }
        return s / 3600 + " h" + (s % 3600 / 60 == 0 ? "" : " " + s % 3600 / 60 + " min");
    }
}
