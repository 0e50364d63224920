package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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

    /** The lines of a streamed body the fake cuts off, read until the cut; fails when the stream ends cleanly instead. */
    static List<String> linesUntilCut(InputStream body) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            assertThatThrownBy(() -> {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            }).isInstanceOf(IOException.class);
        }
        return lines;
    }
}
