package dev.switchboard.server.cli;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT, taken over from the JVM: by default they run the shutdown hooks and end the process with
 * status 143 (130), whatever the hooks did, and a hook cannot wait for a drain without racing the exit. With these
 * handlers a signal only counts the latch down; {@code serve} then drains and returns 0 from {@code main}.
 *
 * <p>Installed first thing, before the config is read and before the listener starts: a signal that arrives
 * while the gateway starts is kept, and the start is followed at once by a (short) drain and a clean exit.
 */
final class StopSignal {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignal.class);
    private final CountDownLatch received = new CountDownLatch(1);

    private StopSignal() {
    }

    /** Installs the handlers for TERM and INT (INT where the platform has it). */
    static StopSignal install() {
        StopSignal stop = new StopSignal();
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), s -> {
                    LOG.atInfo().addKeyValue("signal", "SIG" + s.getName()).log("stop requested");
                    stop.received.countDown();
                });
            } catch (IllegalArgumentException e) {
                // a signal this platform does not have, or one the JVM reserves (-Xrs): the JVM's default stays
            }
        }
        return stop;
    }

    /** Waits for the signal. */
    void await() {
        try {
            received.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
