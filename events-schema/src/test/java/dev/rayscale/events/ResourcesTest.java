package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.codec.EventJson;
import org.junit.jupiter.api.Test;

class ResourcesTest {

    @Test
    void fitsWhenEveryRequestedAmountIsAvailable() {
        Resources node = Resources.of("CPU", "4", "memory", "1000");

        assertThat(Resources.of("CPU", "4").fitsIn(node)).isTrue();
        assertThat(Resources.of("CPU", "4.0001").fitsIn(node)).isFalse();
        assertThat(Resources.of("GPU", "1").fitsIn(node)).isFalse();
        assertThat(Resources.NONE.fitsIn(node)).isTrue();
    }

    @Test
    void arithmeticIsExactAndDropsZeros() {
        Resources node = Resources.of("CPU", "4", "GPU", "1");

        Resources left = node.minus(Resources.of("CPU", "1.5", "GPU", "1"));

        assertThat(left).isEqualTo(Resources.of("CPU", "2.5"));
        assertThat(left.has("GPU")).isFalse();
        assertThat(left.plus(Resources.of("CPU", "1.5", "GPU", "1"))).isEqualTo(node);
        assertThat(Resources.of("CPU", "0.5").times(3)).isEqualTo(Resources.of("CPU", "1.5"));
    }

    @Test
    void equalBundlesPrintIdentically() throws Exception {
        String one = EventJson.mapper().writeValueAsString(Resources.of("memory", "1073741824", "CPU", "1"));
        String other = EventJson.mapper().writeValueAsString(Resources.of("CPU", "1.0", "memory", "1073741824", "GPU", "0"));

        assertThat(one).isEqualTo(other).isEqualTo("{\"CPU\":1,\"memory\":1073741824}");
    }
}
