package dev.switchboard.testkit;

import org.junit.jupiter.api.AfterEach;

/**
 * What the tests of the fake upstream itself share: a fresh fake per test, closed after it, so no test sees
 * another's scripts, faults or recorded requests.
 */
abstract class FakeUpstreamSupport {
    /** Started before the subclass's fields, which may build their clients on it. */
    protected final FakeUpstream upstream = FakeUpstream.start();

    @AfterEach
    final void closeUpstream() {
        upstream.close();
    }
}
