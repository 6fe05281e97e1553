package dev.rayscale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.demo.RayscaleServices.Member;
import dev.rayscale.demo.RayscaleServices.Service;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    /** An instance restarted halfway counts from zero again: what it handled before its stop is kept, the window's start left out. */
    @Test
    void aRestartedInstanceCountsBothItsRunsOverTheWindow() {
        Member planner = new Member(Service.PLANNER, 1);
        Member restarted = new Member(Service.PLANNER, 2);
        Map<Member, Long> counters = new HashMap<>(Map.of(planner, 500L, restarted, 400L));
        HandledRecords handled = new HandledRecords(counters::get);

        handled.begin(List.of(planner, restarted));
        counters.putAll(Map.of(planner, 800L, restarted, 650L));
        handled.stopping(restarted);
        counters.putAll(Map.of(planner, 1_200L, restarted, 0L));
        counters.putAll(Map.of(planner, 1_500L, restarted, 120L));

        assertThat(handled.measured(planner)).isEqualTo(1_000);
        assertThat(handled.measured(restarted)).isEqualTo(250 + 120);
        counters.put(restarted, -1L);
        assertThat(handled.measured(restarted)).as("metrics not read").isEqualTo(-1);
    }

    @Test
    void oneInstanceOfEachPrintsNothing() {
        assertThat(InstanceShare.lines(List.of())).isEmpty();
    }
}
