package dev.rayscale.sim;

import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When Rayscale — any client but a simulated cluster's own parts, which send {@link ApiFaults#SIM_HEADER} — last listed
 * a cluster's pods (by its {@code ray.io/cluster} label) and last had a patch of its RayCluster's spec applied, on the
 * JVM's monotonic clock. It tells a pod lost before Rayscale could see it from one Rayscale had already seen gone: the
 * operator, with in-tree autoscaling off, deletes pods of its own choosing when a pod a patch named was lost after the
 * pods were read for that patch and replaced before the operator saw it (see {@link KubeRayOperator}), and no client
 * can prevent that; a client that names a pod it had seen gone can.
 */
final class RayscaleRequests {

    private static final Pattern PODS = Pattern.compile("/api/v1/namespaces/([^/]+)/pods\\?(.*)");
    /** A named RayCluster (not its status), its namespace and name captured. */
    static final Pattern NAMED_RAYCLUSTER = Pattern.compile("/apis/ray\\.io/v1/namespaces/([^/]+)/rayclusters/([^/?]+)(\\?.*)?");
    private static final String CLUSTER_LABEL = "ray.io/cluster=";

    private record Cluster(String namespace, String name) {
    }

    private static final class Times {
        long lastPodsList = Long.MIN_VALUE;
        long podsListBeforeLastPatch = Long.MIN_VALUE;
    }

    private final Map<Cluster, Times> clusters = new ConcurrentHashMap<>();
    private volatile BiConsumer<String, Long> patchesSent = (cluster, atMillis) -> { };

    /**
     * Tells {@code listener} of every patch of a RayCluster's spec Rayscale sends, as it arrives (before it is answered):
     * the cluster ({@code namespace/name}) and the wall clock in milliseconds.
     */
    void onPatchSent(BiConsumer<String, Long> listener) {
        this.patchesSent = listener;
    }

    /** Called as a request arrives, before it is answered: a list's answer holds what the store held then or later. */
    void arrived(RecordedRequest request) {
        if (request.getHeader(ApiFaults.SIM_HEADER) != null) {
            return;
        }
        if (request.getMethod().equals("PATCH")) {
            Matcher rayCluster = NAMED_RAYCLUSTER.matcher(request.getPath());
            if (rayCluster.matches()) {
                patchesSent.accept(rayCluster.group(1) + "/" + rayCluster.group(2), System.currentTimeMillis());
            }
            return;
        }
        if (!request.getMethod().equals("GET")) {
            return;
        }
        Matcher pods = PODS.matcher(request.getPath());
        if (!pods.matches() || request.getPath().contains("watch=")) {
            return;
        }
        String cluster = labelledCluster(pods.group(2));
        if (cluster != null) {
            Times times = clusters.computeIfAbsent(new Cluster(pods.group(1), cluster), key -> new Times());
            synchronized (times) {
                times.lastPodsList = System.nanoTime();
            }
        }
    }

    /** Called once the store applied a patch (whatever answer the client then gets). */
    void patched(RecordedRequest request) {
        if (request.getHeader(ApiFaults.SIM_HEADER) != null) {
            return;
        }
        Matcher rayCluster = NAMED_RAYCLUSTER.matcher(request.getPath());
        if (rayCluster.matches()) {
            Times times = clusters.computeIfAbsent(new Cluster(rayCluster.group(1), rayCluster.group(2)), key -> new Times());
            synchronized (times) {
                times.podsListBeforeLastPatch = times.lastPodsList;
            }
        }
    }

    /** When Rayscale last listed the cluster's pods before its last patch to the RayCluster; {@code Long.MIN_VALUE} if never. */
    long podsListedBeforeLastPatch(String namespace, String cluster) {
        Times times = clusters.get(new Cluster(namespace, cluster));
        if (times == null) {
            return Long.MIN_VALUE;
        }
        synchronized (times) {
            return times.podsListBeforeLastPatch;
        }
    }

    private static String labelledCluster(String query) {
        for (String parameter : query.split("&")) {
            if (!parameter.startsWith("labelSelector=")) {
                continue;
            }
            String selector = URLDecoder.decode(parameter.substring("labelSelector=".length()), StandardCharsets.UTF_8);
            for (String term : selector.split(",")) {
                if (term.startsWith(CLUSTER_LABEL)) {
                    return term.substring(CLUSTER_LABEL.length());
                }
            }
        }
        return null;
    }
}
