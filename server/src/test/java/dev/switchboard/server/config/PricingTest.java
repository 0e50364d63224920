package dev.switchboard.server.config;

import static dev.switchboard.server.config.ConfigSupport.BASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.catalog.Pricing;
import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PricingTest {

    @ParameterizedTest
    @CsvSource({
            "0.15, 150000000",
            "3.75, 3750000000",
            "0.075, 75000000",
            "3, 3000000000",
            "3.00, 3000000000",
            "0, 0",
            "0.000000001, 1",
            "1e-3, 1000000",
            "1_000, 1000000000000",
            "75.00, 75000000000",
            "0.1, 100000000",
            // read digit by digit, as BigDecimal reads them
            "+0.5, 500000000",
            ".5, 500000000",
            "5., 5000000000",
            "007, 7000000000",
            "999999999.999999999, 999999999999999999",
            // left to BigDecimal: more digits than the digit-by-digit reading takes, a minus sign
            "1000000000, 1000000000000000000",
            "0.1500000000, 150000000",
            "-0, 0",
    })
    void usdPerMillionBecomeExactNanoDollars(String usd, long nanos) throws Exception {
        assertThat(UsdPrices.toNanos(usd)).isEqualTo(nanos);
    }

    /**
     * The digit-by-digit reading and {@link BigDecimal} agree on every plain price: random texts of 0-9 digits before
     * and after an optional point, with an optional {@code +}, each checked against BigDecimal's exact value.
     */
    @Test
    void plainPricesReadDigitByDigitEqualWhatBigDecimalReads() throws Exception {
        Random random = new Random(20261124L);
        for (int i = 0; i < 20_000; i++) {
            String whole = digits(random, random.nextInt(10));
            String fraction = digits(random, random.nextInt(10));
            boolean point = !fraction.isEmpty() || random.nextBoolean();
            if (whole.isEmpty() && fraction.isEmpty()) {
                whole = "0";
            }
            String text = (random.nextInt(4) == 0 ? "+" : "") + whole + (point ? "." : "") + fraction;
            long expected = new BigDecimal(text).movePointRight(9).longValueExact();
            assertThat(UsdPrices.toNanos(text)).as(text).isEqualTo(expected);
        }
    }

    private static String digits(Random random, int count) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < count; i++) {
            b.append((char) ('0' + random.nextInt(10)));
        }
        return b.toString();
    }

    @Test
    void refusesWhatCannotBeAnExactNonNegativePrice() {
        assertThatThrownBy(() -> UsdPrices.toNanos("-0.5")).hasMessage("must not be negative, got -0.5 (use 0 for free)");
        assertThatThrownBy(() -> UsdPrices.toNanos("0.0000000001")).hasMessageContaining("at most 9 decimal places");
        assertThatThrownBy(() -> UsdPrices.toNanos("1e12")).hasMessageContaining("too large");
        assertThatThrownBy(() -> UsdPrices.toNanos(".inf")).hasMessageContaining("must be a number");
        assertThatThrownBy(() -> UsdPrices.toNanos("three")).hasMessageContaining("must be a number");
        assertThatThrownBy(() -> UsdPrices.toNanos("1.2.3")).hasMessageContaining("must be a number");
        assertThatThrownBy(() -> UsdPrices.toNanos("+")).hasMessageContaining("must be a number");
        assertThatThrownBy(() -> UsdPrices.toNanos(".")).hasMessageContaining("must be a number");
        assertThatThrownBy(() -> UsdPrices.toNanos("")).hasMessageContaining("must be a number");
    }

    private static Pricing pricingOf(String pricing) {
        return ConfigSupport.parse(BASE.replace("pricing: {input: 1, output: 2}", "pricing: " + pricing))
                .catalog().resolve("m1").orElseThrow().pricing();
    }

    @Test
    void yamlNumbersAndStringsAreReadFromTheirTextNotAsDoubles() {
        // 0.1 + 0.2 style trouble would show here: 0.29 as a double is 0.28999999999999998.
        assertThat(pricingOf("{input: 0.29, output: \"0.58\"}")).isEqualTo(new Pricing(290_000_000L, 580_000_000L, 29_000_000L,
                362_500_000L, 580_000_000L));
    }

    @Test
    void missingCachePricesFollowTheUsualRatios() {
        assertThat(pricingOf("{input: 3.00, output: 15.00}")).isEqualTo(Pricing.withDefaultCacheRatios(3_000_000_000L, 15_000_000_000L))
                .isEqualTo(new Pricing(3_000_000_000L, 15_000_000_000L, 300_000_000L, 3_750_000_000L, 6_000_000_000L));
    }

    @Test
    void eachCachePriceCanBeSetAlone() {
        assertThat(pricingOf("{input: 2.50, output: 10, cache_read: 1.25}"))
                .isEqualTo(new Pricing(2_500_000_000L, 10_000_000_000L, 1_250_000_000L, 3_125_000_000L, 5_000_000_000L));
        assertThat(pricingOf("{input: 2.50, output: 10, cache_write_1h: 2.50}"))
                .isEqualTo(new Pricing(2_500_000_000L, 10_000_000_000L, 250_000_000L, 3_125_000_000L, 2_500_000_000L));
    }

    @Test
    void freeIsZero() {
        assertThat(pricingOf("{input: 0, output: 0}")).isEqualTo(Pricing.FREE);
    }
}
