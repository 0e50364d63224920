package dev.switchboard.engine.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UsdTest {

    @ParameterizedTest
    @CsvSource({
        "10, 10000000000",
        "0.1, 100000000",
        "0.000000001, 1",
        "+2.5, 2500000000",
        "-3.000000001, -3000000001",
        "' 7.25 ', 7250000000",
        "999999999.999999999, 999999999999999999",
        "0, 0",
    })
    void parsesDecimalDollarsExactly(String text, long nanos) {
        assertThat(Usd.toNanos(text, "amount_usd")).isEqualTo(nanos);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "1.0000000001", "1e3", "1,5", "1.", ".5", "NaN", "Infinity", "1000000000", "0x10", "1 000"})
    void refusesAnythingElseNamingTheField(String text) {
        assertThatThrownBy(() -> Usd.toNanos(text, "amount_usd"))
                .isInstanceOfSatisfying(AccountException.class, e -> {
                    assertThat(e.kind()).isEqualTo(AccountException.Kind.INVALID);
                    assertThat(e.field()).contains("amount_usd");
                    assertThat(e.getMessage()).startsWith("amount_usd: expected");
                });
    }

    @ParameterizedTest
    @CsvSource({"10000000000, 10", "1500000000, 1.5", "1, 0.000000001", "0, 0", "-250000000, -0.25"})
    void formatsWithoutTrailingZeros(long nanos, String text) {
        assertThat(Usd.format(nanos)).isEqualTo(text);
    }
}
