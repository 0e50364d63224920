package dev.switchboard.testkit;

import java.io.IOException;
import java.time.Duration;

/**
 * The faults that look the same in every dialect and happen before any answer is shaped:
 * {@code -slowfirst} (delay, then carry on), {@code -failNNN}, {@code -reset}, {@code -hang}.
 */
final class Faults {

    private Faults() {
    }

    /**
     * Applies the scenario's early faults. Returns true when the exchange is finished and the dialect
     * must not answer.
     */
    static boolean intercept(Scenario scenario, String model, FakeDialect dialect, RawExchange exchange,
            Duration slowFirstDelay) throws IOException {
        if (scenario.has(Scenario.Flag.SLOW_FIRST)) {
            RawExchange.pause(slowFirstDelay);
        }
        if (scenario.failStatus().isPresent()) {
            int status = scenario.failStatus().get();
            dialect.sendError(exchange, status, "Fake upstream: scripted failure " + status + " for model " + model);
            return true;
        }
        if (scenario.has(Scenario.Flag.RESET)) {
            exchange.resetConnection();
            return true;
        }
        if (scenario.has(Scenario.Flag.HANG)) {
            exchange.hangUntilClosed();
            return true;
        }
        return false;
    }
}
