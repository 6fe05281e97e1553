package dev.rayscale.actuator;

import dev.rayscale.actuator.core.Contest;
import dev.rayscale.actuator.core.Ending;
import dev.rayscale.actuator.core.Notice;
import dev.rayscale.events.ActuationCause;
import dev.rayscale.events.ScaleDecision;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rayscale's standing with the other writers of each cluster's replicas and workersToDelete ({@link Contest}): each change
 * another writer made is counted and told on the cluster (a Warning Event {@code ReplicasChangedByAnotherWriter} naming the
 * writer and the fields), and a cluster Rayscale holds for is not written to. In memory only: a new process knows no
 * contest, and at worst writes {@code max-writes} times more before it holds again. One entry per cluster another writer
 * ever changed, forgotten with the cluster.
 */
final class OtherWriters {

    private final Map<String, Contest> byCluster = new ConcurrentHashMap<>();
    private final ActuatorConfig.OtherWriters config;
    private final ActuatorMetrics metrics;
    private final ClusterReports reports;

    OtherWriters(ActuatorConfig.OtherWriters config, ActuatorMetrics metrics, ClusterReports reports) {
        this.config = config;
        this.metrics = metrics;
        this.reports = reports;
    }

    /** The decision's ending if Rayscale holds for another writer of its cluster now: then nothing is read or written. */
    Optional<Ending> holding(ScaleDecision decision, Instant now) {
        Contest contest = byCluster.get(decision.cluster().id());
        return contest != null && contest.held(now) ? Optional.of(held(contest)) : Optional.empty();
    }

    /** After the cluster was read: counts and tells of a change another writer made; the decision's ending if Rayscale holds. */
    Optional<Ending> read(ClusterApi.Observation observed, ScaleDecision decision, Instant now) {
        Contest before = byCluster.getOrDefault(decision.cluster().id(), Contest.NONE);
        Contest.Seen seen = before.read(observed.view().otherWrite(), observed.view().mark().decisionId(), now, config.maxWrites(),
                config.hold());
        if (!seen.contest().equals(before)) {
            byCluster.put(decision.cluster().id(), seen.contest());
        }
        if (seen.newChange()) {
            metrics.otherWrite(seen.holdBegan());
            reports.events(observed.cluster(), List.of(Notice.otherWrite(observed.view().otherWrite(), seen, config.maxWrites(),
                    config.hold())));
        }
        return seen.contest().held(now) ? Optional.of(held(seen.contest())) : Optional.empty();
    }

    /** Rayscale wrote to the decision's cluster. */
    void wrote(ScaleDecision decision) {
        byCluster.computeIfPresent(decision.cluster().id(), (id, contest) -> contest.wrote());
    }

    void forget(ScaleDecision decision) {
        byCluster.remove(decision.cluster().id());
    }

    private static Ending held(Contest contest) {
        return Ending.unread(ActuationCause.OTHER_WRITER, "held until " + contest.heldUntil() + ": another writer kept changing what "
                + "Rayscale wrote (" + contest.lastChange() + ")");
    }
}
