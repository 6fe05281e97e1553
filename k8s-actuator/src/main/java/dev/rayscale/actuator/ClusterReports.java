package dev.rayscale.actuator;

import dev.rayscale.actuator.core.Notice;
import dev.rayscale.clients.ClusterEvents;
import dev.rayscale.events.ScaleDecision;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.ShutdownEvent;
import io.ray.v1.RayCluster;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Tells people (Kubernetes Events) and Ray (the GCS's autoscaling state) what a decision did, off the decision's path.
 * Both are reports about a decision, not part of it: its result waits for neither, as client-go's event recorder sends
 * Events from a queue. Sent inline, they took half of an applied decision's time at 1,000 clusters ({@code ./rayscale
 * bench}), and a GCS that did not answer held every result of its cluster for the GCS deadline.
 *
 * <p>A cluster's GCS reports are coalesced: of those not yet sent, only the newest decision's goes, since the GCS keeps only
 * the newest version anyway (fact A2.5). The queue is bounded: what does not fit is dropped and counted
 * ({@code rayscale.actuator.reports.dropped}), so an API server or GCS that falls behind slows no decision. Stopping
 * sends what is queued, for a few seconds, before the GCS channels close.
 */
@ApplicationScoped
public class ClusterReports {

    /** Reports waiting to be sent at most; an Event is one, a cluster's pending GCS report is one however often it is replaced. */
    static final int QUEUED = 2_000;
    private static final int SENDERS = 2;
    private static final Duration FLUSH_PATIENCE = Duration.ofSeconds(5);
    private static final Logger LOG = Logger.getLogger(ClusterReports.class);

    private record GcsReport(RayCluster cluster, ScaleDecision decision) {
    }

    private final ClusterEvents events;
    private final RayGcs gcs;
    private final ActuatorMetrics metrics;
    private final boolean reportsToGcs;
    private final ThreadPoolExecutor senders;
    private final Map<String, GcsReport> unsentGcsReports = new ConcurrentHashMap<>();
    private final AtomicInteger unsent = new AtomicInteger();

    public ClusterReports(KubernetesClient kubernetes, RayGcs gcs, ActuatorConfig config, ActuatorMetrics metrics) {
        this.events = new ClusterEvents(kubernetes, "rayscale-k8s-actuator");
        this.gcs = gcs;
        this.metrics = metrics;
        this.reportsToGcs = config.gcs().report();
        this.senders = new ThreadPoolExecutor(SENDERS, SENDERS, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUED), runnable -> {
            Thread thread = new Thread(runnable, "actuator-reports");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Records the notices as Events on the cluster, each stamped now. */
    void events(RayCluster cluster, List<Notice> notices) {
        for (Notice notice : notices) {
            Event event = events.event(cluster, notice.warning() ? ClusterEvents.Type.Warning : ClusterEvents.Type.Normal,
                    notice.reason(), notice.message());
            send("event", () -> events.create(event), () -> { });
        }
    }

    /** Tells the cluster's GCS what {@code decision}, now in force, says (unless reporting to the GCS is switched off). */
    void gcs(RayCluster cluster, ScaleDecision decision) {
        if (!reportsToGcs) {
            return;
        }
        String id = decision.cluster().id();
        GcsReport report = new GcsReport(cluster, decision);
        boolean[] first = {false};
        unsentGcsReports.compute(id, (key, held) -> {
            first[0] = held == null;
            return held == null || held.decision().snapshotSequence() <= decision.snapshotSequence() ? report : held;
        });
        if (first[0]) {
            send("gcs", () -> reportNewest(id), () -> unsentGcsReports.remove(id));
        }
    }

    private void reportNewest(String id) {
        GcsReport newest = unsentGcsReports.remove(id);
        if (newest == null) {
            return;
        }
        try {
            gcs.report(newest.cluster(), newest.decision());
        } catch (RuntimeException e) {
            LOG.warnf("%s: could not report the autoscaling state to the GCS: %s", id, e.getMessage());
        }
    }

    private void send(String kind, Runnable report, Runnable dropped) {
        unsent.incrementAndGet();
        try {
            senders.execute(() -> {
                try {
                    report.run();
                } finally {
                    unsent.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException full) {
            unsent.decrementAndGet();
            dropped.run();
            metrics.reportDropped(kind);
            LOG.debugf("%d reports waiting to be sent (or stopping): a %s report was dropped", QUEUED, kind);
        }
    }

    /** Whether every report handed over so far has been sent (or dropped). */
    boolean idle() {
        return unsent.get() == 0;
    }

    /** Once the decisions under way have ended (their reports are queued) and before the GCS channels close. */
    void flush(@Observes @Priority(ShutdownOrder.REPORTS) ShutdownEvent event) {
        senders.shutdown();
        try {
            if (!senders.awaitTermination(FLUSH_PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warnf("stopping with %d report(s) to the API server and the GCS not sent after %s", unsent.get(), FLUSH_PATIENCE);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the first report would otherwise pay for in a cold JVM: the Event builders and serialisers. */
    void warmUp(RayCluster sample) {
        events.warmUp(sample);
    }
}
