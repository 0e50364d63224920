package dev.switchboard.engine.extend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.GatewayException;

/** What the input checks of the extend API share in their tests: the parameter a refusal names. */
final class RefusalSupport {
    private RefusalSupport() {
    }

    /** The parameter a 400 names when {@code call} refuses {@code input}; fails when it accepts it. */
    static String refusedParam(Runnable call, Object input) {
        try {
            call.run();
        } catch (GatewayException e) {
            assertThat(e.error().status()).isEqualTo(400);
            return e.error().param().orElseThrow();
        }
        throw new AssertionError("accepted: " + input);
    }
}
