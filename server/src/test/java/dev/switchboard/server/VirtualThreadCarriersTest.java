package dev.switchboard.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class VirtualThreadCarriersTest {

    @Test
    void oneCpuGetsTwoCarriers() {
        assertThat(VirtualThreadCarriers.parallelism(1, Optional.empty())).contains(2);
    }

    @Test
    void twoOrMoreCpusKeepTheJdksDefault() {
        assertThat(VirtualThreadCarriers.parallelism(2, Optional.empty())).isEmpty();
        assertThat(VirtualThreadCarriers.parallelism(16, Optional.empty())).isEmpty();
    }

    @Test
    void theOperatorsChoiceWins() {
        assertThat(VirtualThreadCarriers.parallelism(1, Optional.of("1"))).isEmpty();
    }
}
