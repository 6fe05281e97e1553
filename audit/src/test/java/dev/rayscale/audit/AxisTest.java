package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AxisTest {

    @ParameterizedTest(name = "{0} -> a tick every {1} up to {2}")
    @CsvSource({
        "575,   100,  600",
        "15,    5,    15",
        "16,    5,    20",
        "1,     0.2,  1",
        "2.4,   0.5,  2.5",
        "0,     0.2,  1",
        "-3,    0.2,  1",
        "NaN,   0.2,  1",
        "12000, 2000, 12000",
        "7,     2,    8",
    })
    void roundStepsFromZeroThatCoverTheLargestValue(double max, double step, double top) {
        Axis axis = Axis.covering(max);

        assertThat(axis.step()).isEqualTo(step);
        assertThat(axis.top()).isEqualTo(top);
        assertThat(axis.ticks()).first().isEqualTo(0.0);
        assertThat(axis.ticks()).last().isEqualTo(top);
        assertThat(axis.ticks()).hasSizeBetween(4, 12);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "575,  '0,100,200,300,400,500,600'",
        "2.4,  '0.0,0.5,1.0,1.5,2.0,2.5'",
        "1,    '0.0,0.2,0.4,0.6,0.8,1.0'",
        "0.03, '0.000,0.005,0.010,0.015,0.020,0.025,0.030'",
    })
    void labelsCarryTheDecimalsTheStepNeedsAndNoMore(double max, String labels) {
        Axis axis = Axis.covering(max);

        assertThat(axis.ticks().stream().map(axis::label)).containsExactly(labels.split(","));
    }
}
