package dev.switchboard.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RequestIdsTest {

    @Test
    void idsAreReqThen32HexDigitsWithTheMillisecondFirst() {
        String id = HttpEdge.newRequestId(0x0123456789abL, new Random(1));
        assertThat(id).matches("req_[0-9a-f]{32}").startsWith("req_0123456789ab");
    }

    @Test
    void idsOfLaterMillisecondsSortAfterEarlierOnesWhateverTheirRandomPart() {
        Random random = new Random(7);
        List<String> ids = new ArrayList<>();
        long millis = 1_795_000_000_000L;
        for (int i = 0; i < 2_000; i++) {
            ids.add(HttpEdge.newRequestId(millis + i, random));
        }
        List<String> sorted = new ArrayList<>(ids);
        sorted.sort(null);
        assertThat(sorted).isEqualTo(ids);
    }

    @Test
    void idsOfOneMillisecondAreDistinct() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            ids.add(HttpEdge.newRequestId(1_795_000_000_000L, java.util.concurrent.ThreadLocalRandom.current()));
        }
        assertThat(ids).hasSize(100_000);
    }

    @Test
    void theLiveGeneratorUsesTheClock() {
        long before = System.currentTimeMillis();
        String id = HttpEdge.newRequestId();
        long after = System.currentTimeMillis();
        long millis = Long.parseLong(id.substring(4, 16), 16);
        assertThat(millis).isBetween(before, after);
    }
}
