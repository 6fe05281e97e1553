package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rayscale.events.codec.EventJson;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class QuantityTest {

    @Test
    void keepsTenThousandths() {
        assertThat(Quantity.parse("0.5").units()).isEqualTo(5_000);
        assertThat(Quantity.parse("0.0001").units()).isEqualTo(1);
        assertThat(Quantity.parse("1073741824").units()).isEqualTo(10_737_418_240_000L);
    }

    @Test
    void roundsFinerDigitsHalfEven() {
        assertThat(Quantity.parse("0.00005").units()).isZero();
        assertThat(Quantity.parse("0.00015").units()).isEqualTo(2);
        assertThat(Quantity.parse("0.33333333").units()).isEqualTo(3_333);
    }

    @Test
    void sumsWithoutTheDriftOfDoubles() {
        Quantity total = Quantity.ZERO;
        for (int i = 0; i < 10; i++) {
            total = total.plus(Quantity.ofDouble(0.1));
        }
        assertThat(total).isEqualTo(Quantity.ONE);
        assertThat(Quantity.ofDouble(0.1 + 0.2)).isEqualTo(Quantity.parse("0.3"));
    }

    @Test
    void printsAsAPlainJsonNumber() throws Exception {
        assertThat(EventJson.mapper().writeValueAsString(Quantity.parse("0.50"))).isEqualTo("0.5");
        assertThat(EventJson.mapper().writeValueAsString(Quantity.of(2))).isEqualTo("2");
        assertThat(EventJson.mapper().writeValueAsString(Quantity.parse("68719476736"))).isEqualTo("68719476736");
        assertThat(EventJson.mapper().readValue("0.25", Quantity.class)).isEqualTo(Quantity.ofUnits(2_500));
    }

    @Test
    void refusesWhatIsNotAnAmount() {
        assertThatThrownBy(() -> Quantity.parse("lots")).hasMessageContaining("'lots' is not a decimal resource amount");
        assertThatThrownBy(() -> Quantity.ofDouble(Double.NaN)).hasMessageContaining("not finite");
        assertThatThrownBy(() -> Quantity.of(new BigDecimal("1e30"))).hasMessageContaining("out of range");
    }

    @Test
    void roundsCpuUpToWholeUnitsLikeKubernetes() {
        assertThat(Quantity.parse("0.5").ceilWhole()).isEqualTo(1);
        assertThat(Quantity.parse("2").ceilWhole()).isEqualTo(2);
        assertThat(Quantity.parse("2.0001").ceilWhole()).isEqualTo(3);
    }

    /**
     * What tenants write reaches these (issue 50: {@code 1e9999999} took 6.4 s and made a 10 MB error; {@code 1e99999999}
     * ran the collector out of memory). Each is refused, or read as nothing, before any arithmetic, and the error quotes
     * a short prefix. The timeout only turns the old code's minutes-long hang into a failure.
     */
    @Test
    @Timeout(30)
    void amountsNoResourceHasAreRefusedBeforeAnyArithmeticAndQuotedShort() {
        assertThatThrownBy(() -> Quantity.parse("1e9999999")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("resource amount '1E+9999999' is out of range");
        assertThatThrownBy(() -> Quantity.of(new BigDecimal("-1e99999999"))).hasMessage("resource amount '-1E+99999999' is out of range");
        assertThat(Quantity.parse("1e-99999999")).isEqualTo(Quantity.ZERO);
        assertThat(Quantity.parse("0e99999999")).isEqualTo(Quantity.ZERO);
        String endless = "9".repeat(100_000);
        assertThatThrownBy(() -> Quantity.parse(endless))
                .hasMessage("resource amount '" + "9".repeat(32) + "...' (100000 characters) is longer than 64 characters");
        assertThatThrownBy(() -> Quantity.of(new BigDecimal("0." + "1".repeat(200)))).hasMessageEndingWith("has more than 64 significant digits");
        assertThat(Quantity.parse("123456789012345.6789").units()).as("the largest whole amounts still read").isEqualTo(1_234_567_890_123_456_789L);
    }
}
