package dev.rayscale.collector.assembly;

import com.google.common.hash.HashCode;
import com.google.common.hash.HashFunction;
import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import dev.rayscale.events.Demand;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.RayNode;
import dev.rayscale.events.Resources;
import io.ray.v1.RayCluster;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What makes an observation news: what the GCS said (its session, its nodes but not their idle times, its demand) or why
 * it did not answer, the Ray version its head recorded, the RayCluster's spec generation and the operator's create
 * failures, and each pod's phase, deletion, waiting reason and the KubeRay that made it (in name order: the informers list
 * pods in no set order). Not the GCS's own version, which every
 * read bumps (fact A1.2).
 *
 * <p>The collector keeps one per cluster between polls, so everything but the demand (which the GCS aggregates by shape,
 * and which is kept by value) is kept as a 128-bit digest: kept as maps, the nodes' resources and labels were tens of
 * megabytes of the collector's heap at a thousand clusters (docs/fleet-bench-log.md). Two different observations share a digest with a chance of one in 2^128,
 * and even then the heartbeat publishes the newer one. The digest is fed field by field (each text with its length, an
 * absent value marked) rather than from a rendering, since one is made for every poll of every cluster.
 */
public record Fingerprint(Demand demand, HashCode digest) {

    private static final HashFunction DIGEST = Hashing.murmur3_128();
    private static final Comparator<RayPod> BY_NAME = Comparator.comparing(RayPod::name);
    private static final HashCode NOT_RECONCILED = DIGEST.hashUnencodedChars("spec not reconciled");

    public static Fingerprint of(RayCluster cluster, List<RayPod> pods, GcsRead read, String gcsRayVersion) {
        Hasher digest = DIGEST.newHasher();
        text(digest, gcsRayVersion);
        Demand demand = null;
        if (read instanceof GcsRead.Answered answered) {
            demand = answered.state().demand();
            text(digest.putByte((byte) 'A'), answered.state().sessionName());
            List<RayNode> nodes = answered.state().nodes();
            digest.putInt(nodes.size());
            nodes.forEach(node -> node(digest, node));
        } else if (read instanceof GcsRead.Failed failed) {
            text(digest.putByte((byte) 'F'), failed.code());
        }
        Long generation = cluster.getMetadata().getGeneration();
        digest.putLong(generation == null ? -1 : generation);
        text(digest, LaunchFailures.condition(cluster));
        digest.putInt(pods.size());
        pods.stream().sorted(BY_NAME).forEach(pod -> {
            text(digest, pod.name());
            text(digest, pod.phase());
            digest.putBoolean(pod.terminating());
            text(digest, pod.waitingReason());
            digest.putInt(pod.kubeRay() == null ? -1 : pod.kubeRay().ordinal());
        });
        return new Fingerprint(demand, digest.hash());
    }

    /** The same, and whether KubeRay is acting on the spec: a spec found not reconciled is news though nothing else changed. */
    public Fingerprint andNotReconciled(boolean notReconciled) {
        return notReconciled ? new Fingerprint(demand, Hashing.combineOrdered(List.of(digest, NOT_RECONCILED))) : this;
    }

    private static void node(Hasher digest, RayNode node) {
        text(digest, node.nodeId());
        text(digest, node.podName());
        digest.putInt(node.status().ordinal());
        resources(digest, node.available());
        resources(digest, node.total());
        labels(digest, node.labels());
    }

    private static void resources(Hasher digest, Resources resources) {
        Map<String, Quantity> amounts = resources.asMap();
        digest.putInt(amounts.size());
        amounts.forEach((name, amount) -> text(digest, name).putLong(amount.units()));
    }

    /** Labels in key order: a {@link RayNode}'s are sorted. */
    private static void labels(Hasher digest, Map<String, String> labels) {
        digest.putInt(labels.size());
        labels.forEach((key, value) -> text(text(digest, key), value));
    }

    private static Hasher text(Hasher digest, String text) {
        return text == null ? digest.putInt(-1) : digest.putInt(text.length()).putUnencodedChars(text);
    }
}
