package dev.rayscale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.demo.RayscaleServices.Member;
import dev.rayscale.demo.RayscaleServices.Service;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each instance's part is of its own service's whole. */
class InstanceShareTest {

    @Test
    void eachInstancesPartIsOfItsOwnServicesLoad() {
        List<String> lines = InstanceShare.lines(List.of(
                new InstanceShare(new Member(Service.PLANNER, 1), 300, 0.30),
                new InstanceShare(new Member(Service.PLANNER, 2), 100, 0.10),
                new InstanceShare(new Member(Service.ACTUATOR, 1), 50, 0.05),
                new InstanceShare(new Member(Service.ACTUATOR, 2), 50, 0.15)));

        assertThat(lines.get(1)).matches("  scaling-planner +300 +75% +0\\.30 +75%");
        assertThat(lines.get(2)).matches("  scaling-planner-2 +100 +25% +0\\.10 +25%");
        assertThat(lines.get(3)).matches("  k8s-actuator +50 +50% +0\\.05 +25%");
        assertThat(lines.get(4)).matches("  k8s-actuator-2 +50 +50% +0\\.15 +75%");
    }

    @Test
    void oneInstanceOfEachPrintsNothing() {
        assertThat(InstanceShare.lines(List.of())).isEmpty();
    }
}
