package dev.rayscale.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes nodes worker pods run on, and a node autoscaler (like the cloud provider's
 * cluster-autoscaler) that adds nodes for unschedulable pods after its own delay. Without a
 * configured pool every pod is scheduled at once.
 */
final class NodePool {

    private record K8sNode(double readyAt) {
    }

    private final Workload.NodePool config;
    private final List<K8sNode> nodes = new ArrayList<>();
    private final Map<String, Integer> podOnNode = new HashMap<>();

    NodePool(Workload.NodePool config) {
        this.config = config;
        if (config != null) {
            for (int i = 0; i < config.initialNodes(); i++) {
                nodes.add(new K8sNode(0));
            }
        }
    }

    /** Places the pod on a ready node with a free slot; false if there is none (the pod stays Unschedulable). */
    synchronized boolean schedule(String pod, double now) {
        if (config == null) {
            return true;
        }
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).readyAt <= now && used(i) < config.podsPerNode()) {
                podOnNode.put(pod, i);
                return true;
            }
        }
        return false;
    }

    synchronized void release(String pod) {
        podOnNode.remove(pod);
    }

    /** The node autoscaler: enough new nodes for the unschedulable pods, counting nodes already on their way. */
    synchronized void autoscale(int unschedulable, double now) {
        if (config == null || unschedulable == 0) {
            return;
        }
        long coming = nodes.stream().filter(node -> node.readyAt > now).count();
        long needed = (unschedulable + config.podsPerNode() - 1) / config.podsPerNode() - coming;
        for (long i = 0; i < needed && nodes.size() < config.maxNodes(); i++) {
            nodes.add(new K8sNode(now + config.provisionSeconds()));
        }
    }

    private int used(int node) {
        return (int) podOnNode.values().stream().filter(index -> index == node).count();
    }
}
