package dev.rayscale.collector.assembly;

import dev.rayscale.events.Demand;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.LabelConstraint;
import dev.rayscale.events.LabelOperator;
import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.NodeStatus;
import dev.rayscale.events.PlacementStrategy;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.TaskDemand;
import dev.rayscale.gcs.proto.BundleSelector;
import dev.rayscale.gcs.proto.ClusterResourceConstraint;
import dev.rayscale.gcs.proto.ClusterResourceState;
import dev.rayscale.gcs.proto.GangResourceRequest;
import dev.rayscale.gcs.proto.LabelSelectorConstraint;
import dev.rayscale.gcs.proto.LabelSelectorOperator;
import dev.rayscale.gcs.proto.NodeState;
import dev.rayscale.gcs.proto.PlacementConstraint;
import dev.rayscale.gcs.proto.ResourceRequest;
import dev.rayscale.gcs.proto.ResourceRequestByCount;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the GCS said, in the snapshot's terms: Ray nodes, and demand grouped by shape.
 *
 * <p>Placement groups: the GCS sends only their unplaced bundles; STRICT_PACK bundles carry an
 * affinity constraint on the label {@code _PG_<id>}, STRICT_SPREAD bundles an anti-affinity one, PACK
 * and SPREAD none (those two are told apart by the group's details, {@code <id>:<STRATEGY>|<state>},
 * and read as PACK when the details do not say).
 */
public record RayState(long stateVersion, String sessionName, List<RayNode> nodes, Demand demand) {

    private static final String PG_LABEL_PREFIX = "_PG_";

    /**
     * @param replicaOfPod the multi-host replica name of a pod, or null (from the pods' labels)
     */
    public static RayState of(ClusterResourceState state, Function<String, String> replicaOfPod) {
        List<RayNode> nodes = new ArrayList<>();
        for (NodeState node : state.getNodeStatesList()) {
            String pod = node.getInstanceId().isEmpty() ? null : node.getInstanceId();
            Map<String, String> labels = new TreeMap<>(node.getDynamicLabelsMap());
            labels.putAll(node.getLabelsMap());
            nodes.add(new RayNode(HexFormat.of().formatHex(node.getNodeId().toByteArray()), pod,
                    pod == null ? null : replicaOfPod.apply(pod), node.getRayNodeTypeName().isEmpty() ? "unknown" : node.getRayNodeTypeName(),
                    status(node), resources(node.getTotalResourcesMap()), resources(node.getAvailableResourcesMap()),
                    Math.max(0, node.getIdleDurationMs()), labels, node.getNodeIpAddress().isEmpty() ? null : node.getNodeIpAddress(),
                    node.getNodeActivityList()));
        }
        return new RayState(state.getClusterResourceStateVersion(), state.getClusterSessionName(), nodes,
                new Demand(tasks(state.getPendingResourceRequestsList()), gangs(state.getPendingGangResourceRequestsList()),
                        constraints(state.getClusterResourceConstraintsList())));
    }

    private static NodeStatus status(NodeState node) {
        return switch (node.getStatus()) {
            case IDLE -> NodeStatus.IDLE;
            case DRAINING -> NodeStatus.DRAINING;
            case DEAD -> NodeStatus.DEAD;
            // UNSPECIFIED is treated as busy: never a reason to remove a node.
            case RUNNING, UNSPECIFIED, UNRECOGNIZED -> NodeStatus.RUNNING;
        };
    }

    /** The same state, its {@code request_resources} floor replaced by {@code floor} (read from the GCS's KV, fact D48). */
    public RayState withConstraints(List<ResourceConstraint> floor) {
        return new RayState(stateVersion, sessionName, nodes, new Demand(demand.tasks(), demand.gangs(), floor));
    }

    /** Shape and label selectors: the GCS aggregates pending demand by both (fact A5.21, C43). */
    private record DemandKey(Resources shape, List<LabelSelector> selectors) {
    }

    private static List<TaskDemand> tasks(List<ResourceRequestByCount> requests) {
        Map<DemandKey, Long> counts = new LinkedHashMap<>();
        for (ResourceRequestByCount request : requests) {
            if (request.getCount() > 0) {
                ResourceRequest bundle = request.getRequest();
                counts.merge(new DemandKey(resources(bundle.getResourcesBundleMap()), selectors(bundle)), request.getCount(), Long::sum);
            }
        }
        List<TaskDemand> tasks = new ArrayList<>();
        counts.forEach((key, count) -> tasks.add(new TaskDemand(key.shape(), count, key.selectors())));
        return tasks;
    }

    private static List<LabelSelector> selectors(ResourceRequest request) {
        List<LabelSelector> selectors = new ArrayList<>();
        for (dev.rayscale.gcs.proto.LabelSelector selector : request.getLabelSelectorsList()) {
            List<LabelConstraint> constraints = new ArrayList<>();
            for (LabelSelectorConstraint constraint : selector.getLabelConstraintsList()) {
                LabelOperator operator = switch (constraint.getOperator()) {
                    case LABEL_OPERATOR_IN -> LabelOperator.IN;
                    case LABEL_OPERATOR_NOT_IN -> LabelOperator.NOT_IN;
                    // An operator this build does not know cannot be honoured: reading it as no constraint
                    // could place the work where it must not go, so the selector is kept unmatchable.
                    case LABEL_OPERATOR_UNSPECIFIED, UNRECOGNIZED -> LabelOperator.IN;
                };
                List<String> values = constraint.getOperator() == LabelSelectorOperator.LABEL_OPERATOR_IN
                        || constraint.getOperator() == LabelSelectorOperator.LABEL_OPERATOR_NOT_IN ? constraint.getLabelValuesList() : List.of();
                constraints.add(new LabelConstraint(constraint.getLabelKey(), operator, values));
            }
            selectors.add(new LabelSelector(constraints));
        }
        return selectors;
    }

    private static List<GangDemand> gangs(List<GangResourceRequest> requests) {
        List<GangDemand> gangs = new ArrayList<>();
        for (GangResourceRequest gang : requests) {
            List<ResourceRequest> bundles = bundlesOf(gang);
            if (bundles.isEmpty()) {
                continue;
            }
            gangs.add(new GangDemand(gangId(bundles, gang), strategy(bundles, gang), bundles.stream().map(request -> resources(request.getResourcesBundleMap())).toList(),
                    gang.getDetails().isEmpty() ? null : gang.getDetails(), bundles.stream().map(RayState::selectors).toList()));
        }
        return gangs;
    }

    /**
     * A placement group's unplaced bundles (fact D52): its first bundle selector, which carries each bundle's label
     * selectors, Ray's first choice (today's GCS sends one: "Multiple will be added when we implement the fallback
     * mechanism", {@code GetPendingGangResourceRequests}); the deprecated {@code requests} only when there is none. A GCS of
     * about Ray 2.48 sent one bundle selector per bundle (fixed by ray-project/ray PR 55106): as many selectors of one
     * request each as there are requests are read as the bundles of one group, not as fallbacks.
     */
    private static List<ResourceRequest> bundlesOf(GangResourceRequest gang) {
        List<BundleSelector> selectors = gang.getBundleSelectorsList();
        if (selectors.isEmpty()) {
            return gang.getRequestsList();
        }
        if (selectors.size() > 1 && selectors.size() == gang.getRequestsCount()
                && selectors.stream().allMatch(selector -> selector.getResourceRequestsCount() == 1)) {
            return selectors.stream().map(selector -> selector.getResourceRequests(0)).toList();
        }
        return selectors.get(0).getResourceRequestsList();
    }

    private static PlacementStrategy strategy(List<ResourceRequest> bundles, GangResourceRequest gang) {
        for (ResourceRequest request : bundles) {
            for (PlacementConstraint constraint : request.getPlacementConstraintsList()) {
                if (constraint.hasAffinity()) {
                    return PlacementStrategy.STRICT_PACK;
                }
                if (constraint.hasAntiAffinity()) {
                    return PlacementStrategy.STRICT_SPREAD;
                }
            }
        }
        String details = gang.getDetails();
        return details.contains(":SPREAD") ? PlacementStrategy.SPREAD : PlacementStrategy.PACK;
    }

    /** The placement group's id: from its constraint label, else from its details, else a digest of its bundles. */
    private static String gangId(List<ResourceRequest> bundles, GangResourceRequest gang) {
        for (ResourceRequest request : bundles) {
            for (PlacementConstraint constraint : request.getPlacementConstraintsList()) {
                String label = constraint.hasAffinity() ? constraint.getAffinity().getLabelName() : constraint.getAntiAffinity().getLabelName();
                if (label.startsWith(PG_LABEL_PREFIX)) {
                    return label.substring(PG_LABEL_PREFIX.length());
                }
            }
        }
        String details = gang.getDetails();
        int colon = details.indexOf(':');
        if (colon > 0) {
            return details.substring(0, colon);
        }
        return "unnamed-" + Integer.toHexString(bundles.hashCode());
    }

    private static List<ResourceConstraint> constraints(List<ClusterResourceConstraint> constraints) {
        List<ResourceConstraint> result = new ArrayList<>();
        for (ClusterResourceConstraint constraint : constraints) {
            Map<Resources, Long> counts = new LinkedHashMap<>();
            constraint.getResourceRequestsList().forEach(request -> {
                if (request.getCount() > 0) {
                    counts.merge(resources(request.getRequest().getResourcesBundleMap()), request.getCount(), Long::sum);
                }
            });
            if (!counts.isEmpty()) {
                result.add(new ResourceConstraint(counts.entrySet().stream().map(e -> new ShapeCount(e.getKey(), e.getValue())).toList()));
            }
        }
        return result;
    }

    static Resources resources(Map<String, Double> amounts) {
        Map<String, Quantity> converted = new TreeMap<>();
        amounts.forEach((name, amount) -> converted.put(name, Quantity.ofDouble(amount)));
        return Resources.of(converted);
    }
}
