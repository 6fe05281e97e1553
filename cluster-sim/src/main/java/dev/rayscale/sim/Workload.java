package dev.rayscale.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.Resources;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A scenario for the simulated cluster (YAML or JSON): the RayCluster to create, the Kubernetes node
 * pool its pods wait for, and a trace of work submitted over time.
 *
 * @param speed default simulated seconds per real second
 * @param podStartSeconds from a pod being scheduled on a node to its Ray node registering
 * @param nodePool absent: every pod is scheduled at once; present: pods wait for free node slots, and a
 *     simulated node autoscaler adds nodes after its own delay
 * @param maxSeconds the run stops after this much simulated time even if not settled
 */
public record Workload(
        String name,
        String description,
        double speed,
        Cluster cluster,
        NodePool nodePool,
        double podStartSeconds,
        double maxSeconds,
        List<Event> events) {

    /** The RayCluster: a head that runs nothing (num-cpus 0 unless headCpus) and worker groups. */
    public record Cluster(double headCpus, String upscalingMode, Integer idleTimeoutSeconds, List<Group> groups) {
    }

    /** A worker group; {@code resources} are per node (CPU, GPU, memory in bytes, custom). */
    public record Group(String name, Map<String, BigDecimal> resources, int min, int max, Integer hosts, Integer replicas) {

        public Resources shape() {
            return Workload.resources(resources);
        }

        public int numOfHosts() {
            return hosts == null ? 1 : hosts;
        }
    }

    /**
     * @param initialNodes Kubernetes nodes ready at the start
     * @param podsPerNode worker pods one node holds
     * @param maxNodes the node autoscaler's limit
     * @param provisionSeconds how long the node autoscaler takes to add a node
     */
    public record NodePool(int initialNodes, int podsPerNode, int maxNodes, double provisionSeconds) {
    }

    /** At {@code at} seconds, submit tasks or a placement group. */
    public record Event(double at, Tasks tasks, PlacementGroup placementGroup) {
    }

    /** {@code count} tasks of {@code shape}, each running {@code seconds}. */
    public record Tasks(long count, Map<String, BigDecimal> shape, double seconds) {
    }

    /** A placement group whose bundles are held for {@code seconds} once placed. */
    public record PlacementGroup(String id, String strategy, List<Map<String, BigDecimal>> bundles, double seconds) {
    }

    public static Workload read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read workload " + file, e);
        }
    }

    /** A workload shipped with Rayscale, by name ({@code walkthrough}, {@code burst}, ...). */
    public static Workload shipped(String name) {
        try (InputStream in = Workload.class.getClassLoader().getResourceAsStream("workloads/" + name + ".yaml")) {
            if (in == null) {
                throw new IllegalArgumentException("no shipped workload named " + name);
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Workload read(InputStream in) throws IOException {
        return new ObjectMapper(new YAMLFactory()).readValue(in, Workload.class);
    }

    /** A shape as written in a workload, as exact resources. */
    public static Resources resourcesOf(Map<String, BigDecimal> amounts) {
        return resources(amounts);
    }

    static Resources resources(Map<String, BigDecimal> amounts) {
        Map<String, Quantity> quantities = new TreeMap<>();
        amounts.forEach((name, amount) -> quantities.put(name, Quantity.of(amount)));
        return Resources.of(quantities);
    }
}
