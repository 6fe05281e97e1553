package dev.rayscale.actuator.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.events.GroupTarget;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What Rayscale wrote, kept beside what it wrote, tells another writer's change from its own. */
class WrittenGroupsTest {

    private static ObservedCluster.ObservedGroup group(String name, Integer replicas, List<String> workersToDelete) {
        return new ObservedCluster.ObservedGroup(name, replicas, 0, 10, 1, workersToDelete, true);
    }

    private static ObservedCluster cluster(ObservedCluster.ObservedGroup... groups) {
        return new ObservedCluster("default", "c", "uid-1", "100", 7L, true, true, false, AppliedMark.NONE, false, List.of(groups),
                Map.of(), null, null);
    }

    @Test
    void aPlanWrittenAndReadBackShowsNoOtherWrite() {
        ObservedCluster before = cluster(group("cpu", 2, List.of()), group("gpu", 1, List.of("gpu-a")));
        ActuationPlan plan = ActuationPlan.of(ActuationPlanTest.decision(new GroupTarget("cpu", 0, 2, 5, List.of(), List.of(), List.of())), before);
        plan.settle(Map.of());

        String written = WrittenGroups.after(plan);

        assertThat(WrittenGroups.changedSince(written, List.of(group("cpu", 5, List.of()), group("gpu", 1, List.of("gpu-a"))))).isEmpty();
        assertThat(WrittenGroups.changedSince(written, List.of(group("cpu", 2, List.of()), group("gpu", 1, List.of()))))
                .containsExactly("cpu replicas 5 -> 2", "gpu workersToDelete now []");
    }

    @Test
    void anAnnotationNotInRayscalesFormatReadsAsNoOtherWrite() {
        List<ObservedCluster.ObservedGroup> groups = List.of(group("cpu", 2, List.of()));

        assertThat(WrittenGroups.changedSince(null, groups)).isEmpty();
        assertThat(WrittenGroups.changedSince("not json", groups)).isEmpty();
        assertThat(WrittenGroups.changedSince("[1, 2]", groups)).isEmpty();
        assertThat(WrittenGroups.changedSince("{\"cpu\": 7}", groups)).isEmpty();
        assertThat(WrittenGroups.changedSince("{\"other\": \"7\"}", groups)).isEmpty();
    }

    @Test
    void aLongListIsNotSpelledOut() {
        List<String> many = IntStream.range(0, 40).mapToObj(i -> "pod-" + i).toList();

        assertThat(WrittenGroups.changedSince("{\"cpu\":\"2\"}", List.of(group("cpu", 2, many))))
                .containsExactly("cpu workersToDelete now [pod-0, pod-1, pod-2, pod-3, pod-4] and 35 more");
    }
}
