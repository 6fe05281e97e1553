package dev.rayscale.planner.core;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.DecisionMode;
import dev.rayscale.events.GroupTarget;
import dev.rayscale.events.PendingLaunch;
import dev.rayscale.events.PlannerInfo;
import dev.rayscale.events.Reason;
import dev.rayscale.events.ReasonCode;
import dev.rayscale.events.ScaleDecision;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Turns a finished plan into the decision event. Its id is derived from its inputs, so a replay reproduces it. */
final class DecisionWriter {

    private DecisionWriter() {
    }

    static ScaleDecision write(Plan plan, DecisionMode mode, PlannerSettings settings) {
        String version = settings.version();
        boolean holding = mode != DecisionMode.ACTIVE;
        ClusterSnapshot snapshot = plan.snapshot;
        String policyHash = plan.policy.hash(snapshot);
        List<GroupTarget> targets = new ArrayList<>();
        List<PendingLaunch> launches = new ArrayList<>();
        List<Reason> reasons = new ArrayList<>(plan.reasons);
        for (Group group : plan.groups) {
            int current = group.spec.replicas();
            int target = target(group, mode);
            if (mode == DecisionMode.ACTIVE && group.floorReplicas() > group.plannedSize()) {
                group.notes.add("kept at " + group.floorReplicas() + " replica(s): its pods not named for deletion still exist, and "
                        + "below that the operator would delete pods of its own choosing");
            }
            targets.add(new GroupTarget(group.name, group.spec.index(), current, target, group.spec.workersToDelete(),
                    holding ? List.of() : group.deletions, group.notes));
            int requested = Math.max(0, target * group.hosts - Math.max(current * group.hosts, group.liveNodes));
            int pending = holding ? 0 : group.liveNodes - group.registeredNodes + group.launchingNodes();
            int failed = group.launchFailing() && !group.suspended() ? group.missingPods() : 0;
            if (requested > 0 || pending > 0 || failed > 0) {
                launches.add(new PendingLaunch(group.name, requested, pending, failed, failed > 0 ? group.spec.launchFailure() : null));
            }
            if (failed > 0) {
                reasons.add(new Reason(ReasonCode.LAUNCH_FAILING, group.name, failed + " pod(s) cannot be created: " + group.spec.launchFailure()));
            }
            if (target != current) {
                reasons.add(new Reason(ReasonCode.REPLICAS_CHANGED, group.name,
                        current + " -> " + target + " replicas" + because(group, current, target, holding)));
            }
        }
        String id = UUID.nameUUIDFromBytes((snapshot.id() + "|" + policyHash + "|" + version).getBytes(StandardCharsets.UTF_8)).toString();
        return new ScaleDecision(ScaleDecision.SCHEMA_VERSION, id, snapshot.cluster(), snapshot.id(), snapshot.sequence(),
                snapshot.sources().kubernetes().resourceVersion(), snapshot.observedAt(),
                snapshot.observedAt().plus(plan.policy.decisionTtl()), targets, plan.infeasible, launches, plan.stuckPods,
                mode, Reason.texts(reasons), reasons, new PlannerInfo(version, policyHash, settings.recorded()));
    }

    private static int target(Group group, DecisionMode mode) {
        if (mode == DecisionMode.FROZEN || group.suspended()) {
            return group.spec.replicas();
        }
        if (mode == DecisionMode.HOLD) {
            return Math.max(group.spec.replicas(), group.min());
        }
        return Math.max(group.plannedSize(), group.floorReplicas());
    }

    private static String because(Group group, int current, int target, boolean holding) {
        List<String> parts = new ArrayList<>();
        if (current < group.min()) {
            parts.add("minReplicas " + group.min());
        }
        if (!holding) {
            if (current > group.max()) {
                parts.add("maxReplicas " + group.max());
            }
            addPart(parts, group.added(Group.Need.CONSTRAINTS), "for request_resources");
            addPart(parts, group.added(Group.Need.GANGS), "for placement groups");
            addPart(parts, group.added(Group.Need.TASKS), "for pending tasks");
            if (group.removedReplicas > 0) {
                parts.add("-" + group.removedReplicas + " removed");
            }
        }
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }

    private static void addPart(List<String> parts, int replicas, String why) {
        if (replicas > 0) {
            parts.add("+" + replicas + " " + why);
        }
    }
}
