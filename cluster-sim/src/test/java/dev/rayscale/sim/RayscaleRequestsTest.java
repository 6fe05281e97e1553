package dev.rayscale.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.Test;

/** Which requests count as Rayscale reading a cluster's pods and patching its RayCluster, and which do not. */
class RayscaleRequestsTest {

    private static final String PODS_OF_C1 = "/api/v1/namespaces/ns/pods?labelSelector=ray.io%2Fcluster%3Dc1";

    private final RayscaleRequests requests = new RayscaleRequests();

    @Test
    void theLastPodListBeforeAPatchIsKeptUntilTheNextPatch() {
        requests.patched(request(HttpMethod.PATCH, "/apis/ray.io/v1/namespaces/ns/rayclusters/c1", false));
        assertThat(requests.podsListedBeforeLastPatch("ns", "c1")).as("patched without a read").isEqualTo(Long.MIN_VALUE);

        long before = System.nanoTime();
        requests.arrived(request(HttpMethod.GET, "/api/v1/namespaces/ns/pods?labelSelector=ray.io%2Fnode-type%3Dworker%2Cray.io%2Fcluster%3Dc1&limit=500",
                false));
        long after = System.nanoTime();
        requests.patched(request(HttpMethod.PATCH, "/apis/ray.io/v1/namespaces/ns/rayclusters/c1", false));
        long read = requests.podsListedBeforeLastPatch("ns", "c1");
        assertThat(read - before).isNotNegative();
        assertThat(after - read).isNotNegative();

        requests.arrived(request(HttpMethod.GET, PODS_OF_C1, false));
        assertThat(requests.podsListedBeforeLastPatch("ns", "c1")).as("a read after the patch waits for the next patch").isEqualTo(read);
    }

    @Test
    void theSimulatorsOwnRequestsWatchesOtherClustersAndStatusWritesDoNotCount() {
        requests.arrived(request(HttpMethod.GET, PODS_OF_C1, true));
        requests.arrived(request(HttpMethod.GET, PODS_OF_C1 + "&watch=true", false));
        requests.arrived(request(HttpMethod.GET, "/api/v1/namespaces/ns/pods?labelSelector=ray.io%2Fcluster%3Dc2", false));
        requests.arrived(request(HttpMethod.GET, "/api/v1/namespaces/other/pods?labelSelector=ray.io%2Fcluster%3Dc1", false));
        requests.patched(request(HttpMethod.PATCH, "/apis/ray.io/v1/namespaces/ns/rayclusters/c1", false));
        assertThat(requests.podsListedBeforeLastPatch("ns", "c1")).isEqualTo(Long.MIN_VALUE);

        requests.arrived(request(HttpMethod.GET, PODS_OF_C1, false));
        requests.patched(request(HttpMethod.PATCH, "/apis/ray.io/v1/namespaces/ns/rayclusters/c1/status", false));
        requests.patched(request(HttpMethod.PATCH, "/apis/ray.io/v1/namespaces/ns/rayclusters/c1", true));
        assertThat(requests.podsListedBeforeLastPatch("ns", "c1")).as("no patch of Rayscale's since the read").isEqualTo(Long.MIN_VALUE);
        assertThat(requests.podsListedBeforeLastPatch("other", "c1")).isEqualTo(Long.MIN_VALUE);
    }

    private static RecordedRequest request(HttpMethod method, String path, boolean fromTheSimulator) {
        Headers.Builder headers = Headers.builder();
        if (fromTheSimulator) {
            headers.add(ApiFaults.SIM_HEADER, "true");
        }
        return new RecordedRequest("HTTP/1.1", method, path, headers.build(), new Buffer());
    }
}
