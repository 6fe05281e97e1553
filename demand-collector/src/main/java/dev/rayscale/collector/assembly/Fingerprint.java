package dev.rayscale.collector.assembly;

import io.ray.v1.RayCluster;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What makes an observation news, compared by value: what the GCS said ({@link RayState.News}) or why it did not
 * answer, the RayCluster's spec generation and the operator's create failures, and each pod's phase, deletion and
 * waiting reason (by name: the informers list pods in no set order). Built and compared without rendering anything as
 * text, since the collector compares one for every poll of every cluster.
 */
public record Fingerprint(RayState.News gcs, String gcsFailure, Long generation, String launchFailure, Map<String, PodNews> pods) {

    /** What of a pod makes news. */
    public record PodNews(String phase, boolean terminating, String waitingReason) {
    }

    public static Fingerprint of(RayCluster cluster, List<RayPod> pods, GcsRead read) {
        Map<String, PodNews> podNews = new HashMap<>(pods.size() * 2);
        for (RayPod pod : pods) {
            podNews.put(pod.name(), new PodNews(pod.phase(), pod.terminating(), pod.waitingReason()));
        }
        return new Fingerprint(read instanceof GcsRead.Answered answered ? answered.state().news() : null,
                read instanceof GcsRead.Failed failed ? failed.code() : null, cluster.getMetadata().getGeneration(),
                LaunchFailures.condition(cluster), podNews);
    }
}
