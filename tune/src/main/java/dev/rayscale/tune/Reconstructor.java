package dev.rayscale.tune;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.GangDemand;
import dev.rayscale.events.LabelConstraint;
import dev.rayscale.events.LabelOperator;
import dev.rayscale.events.LabelSelector;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.Resources;
import dev.rayscale.events.ShapeCount;
import dev.rayscale.events.WorkerGroup;
import dev.rayscale.sim.Workload;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reconstructs the workload behind a recording. Snapshots say how much work of each kind was pending and how much of
 * each resource was in use, never of single tasks, so:
 * <ul>
 *   <li>work arrives when its kind's pending count rises (between the two snapshots), and starts when it falls;</li>
 *   <li>work in use that no fall explains started without waiting (on an idle node): it is added as arriving then;</li>
 *   <li>all work on one key resource (an accelerator, else CPU) runs one duration, the one that makes the resource-seconds
 *       in use add up: busy resource-seconds over the work started;</li>
 *   <li>a worker pod's start-up is the quickest pods' (the 10th percentile); pods much slower than that waited for a
 *       Kubernetes node, and the node autoscaler's delay is their median minus the start-up.</li>
 * </ul>
 * {@code durationScale} stretches the durations, {@code startupScale} the pods' start-up and the node autoscaler's delay;
 * calibration picks them.
 */
final class Reconstructor {

    /**
     * How far the workload's clock runs ahead of the recording's: work pending at the first snapshot is submitted before it
     * (at {@code -SEEN_AFTER}), which a workload's clock, starting at 0, cannot say otherwise.
     */
    static final double LEAD_SECONDS = 2;
    /** Work is submitted this long before the snapshot that first saw it: the GCS pulls the raylets' loads once a second (A3.16). */
    private static final double SEEN_AFTER = 1.5;

    /** The node pool's limit when the groups' bounds say more (or nothing). */
    private static final int MOST_NODES = 100_000;
    /**
     * The most {@code request_resources} bundles a floor is replayed with: a tenant's count is any long, and more bundles than
     * a cluster has nodes ask for nothing more in the replay.
     */
    private static final int MOST_BUNDLES = 10_000;

    private Reconstructor() {
    }

    private record Batch(double at, DemandKey key, long count, GangDemand gang) {
    }

    private record Start(double at, DemandKey key, long count) {
    }

    static Reconstruction of(RecordedCluster recording, double durationScale, double startupScale) {
        List<String> notes = new ArrayList<>();
        double rate = recording.clockRate();
        List<Batch> arrivals = new ArrayList<>();
        List<Start> seenStarts = new ArrayList<>();
        List<Workload.Event> floors = new ArrayList<>();
        Map<DemandKey, Long> lastPending = Map.of();
        Map<String, GangDemand> lastGangs = Map.of();
        List<ResourceConstraint> lastConstraints = List.of();
        double before = Double.NaN;
        for (Moment moment : recording.moments()) {
            double now = moment.at() * rate;
            if (!moment.rayState()) {
                before = now;
                continue;
            }
            // Between the snapshot before and this one, late enough to be there at this one's read; at the first, before it.
            double arrival = Double.isNaN(before) ? now - SEEN_AFTER : Math.max(before + 0.001, now - SEEN_AFTER);
            double started = Double.isNaN(before) ? now - SEEN_AFTER : (before + now) / 2;
            for (DemandKey key : Keys.ofEither(moment.pending(), lastPending)) {
                long change = moment.pending().getOrDefault(key, 0L) - lastPending.getOrDefault(key, 0L);
                if (change > 0) {
                    arrivals.add(new Batch(arrival, key, change, null));
                } else if (change < 0) {
                    seenStarts.add(new Start(started, key, -change));
                }
            }
            for (GangDemand gang : moment.gangs().values()) {
                if (!lastGangs.containsKey(gang.id())) {
                    arrivals.add(new Batch(arrival, gangKey(gang), 1, gang));
                }
            }
            lastGangs.values().stream().filter(gang -> !moment.gangs().containsKey(gang.id()))
                    .forEach(gang -> seenStarts.add(new Start(started, gangKey(gang), 1)));
            if (!moment.constraints().equals(lastConstraints)) {
                floors.add(requestResources(arrival, moment.constraints()));
            }
            lastPending = moment.pending();
            lastGangs = moment.gangs();
            lastConstraints = moment.constraints();
            before = now;
        }
        Durations durations = durations(recording, arrivals, seenStarts);
        List<Workload.Event> events = new ArrayList<>(floors);
        long tasks = 0;
        for (Batch batch : arrivals) {
            double seconds = durations.of(batch.key()) * durationScale;
            events.add(batch.gang() != null ? placementGroup(batch.at(), batch.gang(), seconds) : tasks(batch.at(), batch.key(), batch.count(), seconds));
            tasks += batch.count();
        }
        for (Start unseen : durations.unseen()) {
            events.add(tasks(unseen.at(), unseen.key(), unseen.count(), durations.of(unseen.key()) * durationScale));
            tasks += unseen.count();
        }
        events.replaceAll(Reconstructor::led);
        events.sort(Comparator.comparingDouble(Workload.Event::at));
        long unseenCount = durations.unseen().stream().mapToLong(Start::count).sum();
        // Its speed is the recording's clock rate: as a demo scenario it then runs as fast as the recorded cluster did.
        double speed = Math.max(1, Math.round(recording.clockRate() * 10) / 10.0);
        Workload workload = new Workload("tune-" + recording.first().cluster().name(), "reconstructed from a recording", speed,
                cluster(recording.first()), null, 5, null, null, LEAD_SECONDS + recording.seconds() + 1, events, null, null, null);
        workload = withPods(workload, recording, startupScale, notes);
        Map<String, Double> byResource = new TreeMap<>(durations.byResource());
        byResource.replaceAll((resource, seconds) -> seconds * durationScale);
        return new Reconstruction(workload, tasks, byResource, unseenCount, notes);
    }

    /** The event on the workload's clock, which runs {@link #LEAD_SECONDS} ahead of the recording's. */
    private static Workload.Event led(Workload.Event event) {
        return new Workload.Event(event.at() + LEAD_SECONDS, event.tasks(), event.placementGroup(), event.requestResources(),
                event.restartHead(), event.restartRaylets(), event.evict(), event.losePods(), event.suspend(), event.editGroup(),
                event.appendGroup());
    }

    private static DemandKey gangKey(GangDemand gang) {
        return new DemandKey(gang.bundles().stream().reduce(Resources.NONE, Resources::plus), List.of(), gang.strategy().name());
    }

    /** Each key resource's duration, and the work that started unseen, found together (see the class comment). */
    private record Durations(Map<String, Double> byResource, List<Start> unseen) {
        double of(DemandKey key) {
            return byResource.getOrDefault(key.keyResource(), 60.0);
        }
    }

    private static Durations durations(RecordedCluster recording, List<Batch> arrivals, List<Start> seenStarts) {
        double rate = recording.clockRate();
        List<Moment> moments = recording.moments();
        Map<String, Double> busy = new TreeMap<>();
        for (int i = 1; i < moments.size(); i++) {
            double held = (moments.get(i).at() - moments.get(i - 1).at()) * rate;
            Map<String, Double> from = moments.get(i - 1).used();
            Map<String, Double> to = moments.get(i).used();
            for (String resource : Keys.ofEither(to, from)) {
                busy.merge(resource, held * (from.getOrDefault(resource, 0.0) + to.getOrDefault(resource, 0.0)) / 2, Double::sum);
            }
        }
        // Before any kind of work on a resource was seen pending, its unseen work is taken for the first kind seen later.
        Map<String, DemandKey> kinds = new HashMap<>();
        arrivals.forEach(batch -> kinds.putIfAbsent(batch.key().keyResource(), batch.key()));
        List<Start> unseen = unseenStarts(moments, rate, seenStarts, kinds);
        List<Start> all = new ArrayList<>(seenStarts);
        all.addAll(unseen);
        Map<String, Double> byResource = balance(busy, all);
        return new Durations(byResource, unseen);
    }

    /**
     * Each key resource's duration from its busy resource-seconds, accelerators first: work keyed on a GPU also holds CPUs,
     * which are taken off the CPUs' busy time before the CPU-keyed work's duration is found from the rest.
     */
    private static Map<String, Double> balance(Map<String, Double> busy, List<Start> starts) {
        Map<String, Double> remaining = new TreeMap<>(busy);
        Map<String, Double> durations = new TreeMap<>();
        List<String> keys = starts.stream().map(start -> start.key().keyResource()).distinct()
                .sorted(Comparator.comparing((String resource) -> resource.equals("CPU")).thenComparing(Comparator.naturalOrder())).toList();
        for (String resource : keys) {
            List<Start> keyed = starts.stream().filter(start -> start.key().keyResource().equals(resource)).toList();
            double amount = keyed.stream().mapToDouble(start -> start.count() * start.key().amountOf(resource)).sum();
            if (amount <= 0) {
                continue;
            }
            double seconds = Math.max(1, remaining.getOrDefault(resource, 0.0) / amount);
            durations.put(resource, seconds);
            for (Start start : keyed) {
                start.key().shape().names().forEach(name -> remaining.merge(name, -start.count() * start.key().amountOf(name) * seconds, Double::sum));
            }
        }
        return durations;
    }

    /**
     * Work that started without being seen pending: where a key resource's use grew between two snapshots by more than the
     * work seen starting there holds, work of the kind last seen pending on that resource started then (and work in use at
     * the first snapshot had started before it). Work that ended in the same interval hides as much started work: this
     * errs low, never by feeding on its own duration estimate.
     */
    private static List<Start> unseenStarts(List<Moment> moments, double rate, List<Start> seenStarts, Map<String, DemandKey> firstKinds) {
        Map<String, DemandKey> kinds = new HashMap<>(firstKinds);
        List<Start> unseen = new ArrayList<>();
        List<Start> starts = new ArrayList<>(seenStarts);
        starts.sort(Comparator.comparingDouble(Start::at));
        int next = 0;
        Moment before = null;
        for (Moment moment : moments) {
            if (!moment.rayState()) {
                continue;
            }
            double now = moment.at() * rate;
            Map<String, Double> grown = new HashMap<>(moment.used());
            if (before != null) {
                before.used().forEach((name, amount) -> grown.merge(name, -amount, Double::sum));
            }
            while (next < starts.size() && starts.get(next).at() <= now) {
                Start start = starts.get(next++);
                start.key().shape().names().forEach(name -> grown.merge(name, -start.count() * start.key().amountOf(name), Double::sum));
            }
            double at = before == null ? now - SEEN_AFTER : (before.at() * rate + now) / 2;
            moment.pending().keySet().forEach(key -> kinds.put(key.keyResource(), key));
            for (Map.Entry<String, DemandKey> kind : kinds.entrySet()) {
                double unit = kind.getValue().amountOf(kind.getKey());
                long count = unit <= 0 ? 0 : (long) Math.floor(grown.getOrDefault(kind.getKey(), 0.0) / unit + 1e-6);
                if (count > 0) {
                    unseen.add(new Start(at, kind.getValue(), count));
                    DemandKey key = kind.getValue();
                    key.shape().names().forEach(name -> grown.merge(name, -count * key.amountOf(name), Double::sum));
                }
            }
            before = moment;
        }
        return unseen;
    }

    private static Workload.Event tasks(double at, DemandKey key, long count, double seconds) {
        return new Workload.Event(at, new Workload.Tasks(count, amounts(key.shape()), seconds, selector(key.selectors())), null, null, null,
                null, null, null, null, null, null);
    }

    private static Workload.Event placementGroup(double at, GangDemand gang, double seconds) {
        List<Map<String, String>> selectors = gang.bundleLabelSelectors().stream().map(Reconstructor::selector).toList();
        return new Workload.Event(at, null, new Workload.PlacementGroup(gang.id(), gang.strategy().name(),
                gang.bundles().stream().map(Reconstructor::amounts).toList(), seconds, selectors), null, null, null, null, null, null, null,
                null);
    }

    /** A floor as {@code request_resources} bundles, a tenant's count of them bounded ({@link #MOST_BUNDLES}). */
    private static Workload.Event requestResources(double at, List<ResourceConstraint> constraints) {
        List<Map<String, BigDecimal>> bundles = new ArrayList<>();
        for (ResourceConstraint constraint : constraints) {
            for (ShapeCount bundle : constraint.bundles()) {
                for (long i = 0; i < bundle.count() && bundles.size() < MOST_BUNDLES; i++) {
                    bundles.add(amounts(bundle.shape()));
                }
            }
        }
        return new Workload.Event(at, null, null, new Workload.RequestResources(0, bundles, null), null, null, null, null, null, null,
                null);
    }

    /** The first alternative's equality constraints: what a workload's selector can say. */
    private static Map<String, String> selector(List<LabelSelector> alternatives) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (!alternatives.isEmpty()) {
            for (LabelConstraint constraint : alternatives.get(0).constraints()) {
                if (constraint.operator() == LabelOperator.IN && constraint.values().size() == 1) {
                    labels.put(constraint.key(), constraint.values().get(0));
                }
            }
        }
        return labels;
    }

    private static Map<String, BigDecimal> amounts(Resources resources) {
        Map<String, BigDecimal> amounts = new TreeMap<>();
        resources.asMap().forEach((name, amount) -> amounts.put(name, amount.toBigDecimal()));
        return amounts;
    }

    /** The RayCluster as the first snapshot had it: its head's CPUs, its groups, its mode and idle timeout. */
    private static Workload.Cluster cluster(ClusterSnapshot first) {
        List<Workload.Group> groups = new ArrayList<>();
        for (WorkerGroup group : first.workerGroups()) {
            groups.add(new Workload.Group(group.name(), amounts(group.resources()), group.minReplicas(), group.maxReplicas(),
                    group.numOfHosts(), group.replicas(), group.labels()));
        }
        Resources head = first.headGroup().resources();
        double headCpus = head.has("CPU") ? head.get("CPU").toBigDecimal().doubleValue() : 0;
        String mode = first.policy().upscalingMode().name().charAt(0) + first.policy().upscalingMode().name().substring(1).toLowerCase(Locale.ROOT);
        String ray = first.versions() == null ? null : first.versions().ray();
        return new Workload.Cluster(headCpus, mode, (int) first.policy().idleTimeoutSeconds(), groups, null, null,
                new Workload.Versions(ray, null, null), null);
    }

    /** The pods' start-up and, when some pods were much slower than the rest, a node pool they waited for. */
    private static Workload withPods(Workload workload, RecordedCluster recording, double startupScale, List<String> notes) {
        double rate = recording.clockRate();
        List<MomentReader.Startup> startups = recording.startups();
        if (startups.isEmpty()) {
            notes.add("no worker pod was seen starting: a start-up of 5 s is assumed");
            return withStartup(workload, 5 * startupScale, null);
        }
        List<Double> seconds = startups.stream().map(startup -> startup.seconds() * rate).toList();
        double start = Math.max(1, Stats.quantile(seconds, 0.1)) * startupScale;
        double slowFrom = start + Math.max(15, start);
        List<MomentReader.Startup> slow = startups.stream().filter(startup -> startup.seconds() * rate > slowFrom).toList();
        if (slow.isEmpty()) {
            return withStartup(workload, start, null);
        }
        double firstSlow = slow.stream().mapToDouble(MomentReader.Startup::createdAt).min().orElse(0);
        int initial = recording.first().workerGroups().stream().mapToInt(group -> group.replicas() * group.numOfHosts()).sum()
                + (int) startups.stream().filter(startup -> startup.seconds() * rate <= slowFrom && startup.createdAt() <= firstSlow).count();
        double provision = Math.max(1, Stats.median(slow.stream().map(startup -> startup.seconds() * rate).toList()) * startupScale - start);
        // A group without maxReplicas reads as Integer.MAX_VALUE: summed as longs and bounded, not overflowed.
        int most = (int) Math.min(MOST_NODES, recording.first().workerGroups().stream()
                .mapToLong(group -> (long) group.maxReplicas() * group.numOfHosts()).sum());
        notes.add(String.format(Locale.ROOT, "%d of %d pods waited for a Kubernetes node: a node pool of %d nodes at first, a node added "
                + "in %.0f s", slow.size(), startups.size(), initial, provision));
        return withStartup(workload, start, new Workload.NodePool(Math.max(1, initial), 1, Math.max(initial, most), provision));
    }

    private static Workload withStartup(Workload w, double podStartSeconds, Workload.NodePool pool) {
        return new Workload(w.name(), w.description(), w.speed(), w.cluster(), pool, podStartSeconds, w.containerRestartSeconds(),
                w.terminationSeconds(), w.maxSeconds(), w.events(), w.gitOps(), w.rayService(), w.rayJob());
    }
}
