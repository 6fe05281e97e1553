package dev.rayscale.demo;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.rayscale.sim.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A demo of one Rayscale serving several clusters at once (YAML, beside the single-cluster workloads, told apart by its
 * {@code members}): each member a shipped workload played on a cluster of its own Ray and KubeRay, with what Rayscale is
 * expected to do there.
 *
 * @param speed simulated seconds per real second, for every member
 * @param maxSeconds the run stops after this much simulated time even if not every member is done
 */
public record FleetScenario(String name, String description, double speed, double maxSeconds, List<Member> members) {

    /**
     * @param name the member's name; its RayCluster is {@code <scenario>-<name>}
     * @param workload the shipped workload it plays
     * @param versions the Ray and KubeRay its cluster runs
     * @param expect what Rayscale does for it ({@link Expectation})
     * @param annotations what its owner annotates its RayCluster with (a hostile tenant's values, say); none if absent
     */
    public record Member(String name, String workload, Workload.Versions versions, Expectation expect, Map<String, String> annotations) {

        public Member {
            versions = versions == null ? Workload.Versions.CURRENT : versions;
            annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        }
    }

    public FleetScenario {
        members = List.copyOf(members);
    }

    /** True if the shipped scenario of that name is a fleet. */
    public static boolean isFleet(String shippedName) {
        try (InputStream in = FleetScenario.class.getClassLoader().getResourceAsStream("workloads/" + shippedName + ".yaml")) {
            return in != null && new ObjectMapper(new YAMLFactory()).readTree(in).has("members");
        } catch (IOException unreadable) {
            return false;
        }
    }

    public static FleetScenario shipped(String name) {
        try (InputStream in = FleetScenario.class.getClassLoader().getResourceAsStream("workloads/" + name + ".yaml")) {
            if (in == null) {
                throw new IllegalArgumentException("no shipped fleet scenario named " + name);
            }
            JsonNode tree = new ObjectMapper(new YAMLFactory()).readTree(in);
            return new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true).treeToValue(tree, FleetScenario.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each member's workload, on its versions and at the scenario's speed, by its cluster's name. */
    public Map<String, Workload> workloads() {
        Map<String, Workload> workloads = new LinkedHashMap<>();
        for (Member member : members) {
            Workload base = Workload.shipped(member.workload());
            workloads.put(clusterName(member), base.withCluster(base.cluster().withVersions(member.versions())
                    .withAnnotations(member.annotations())));
        }
        return workloads;
    }

    public String clusterName(Member member) {
        return name + "-" + member.name();
    }
}
