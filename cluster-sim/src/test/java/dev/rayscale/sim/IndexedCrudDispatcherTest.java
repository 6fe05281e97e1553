package dev.rayscale.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The indexed store answers every request as fabric8's own CRUD store does: the same script of creates, reads by name,
 * patches, edits, deletes and label-selected lists gives the same answers from both, and the index follows the store.
 */
class IndexedCrudDispatcherTest {

    private final IndexedCrudDispatcher indexed = new IndexedCrudDispatcher();
    private final KubernetesMockServer indexedServer = server(indexed);
    private final KubernetesMockServer plainServer = server(new KubernetesCrudDispatcher(List.of()));

    @AfterEach
    void stop() {
        indexedServer.destroy();
        plainServer.destroy();
    }

    @Test
    void answersAsTheLibrarysStoreDoes() {
        List<String> fromIndexed = script(indexedServer.createClient());
        List<String> fromPlain = script(plainServer.createClient());

        assertThat(fromIndexed).isEqualTo(fromPlain).contains("404", "409", "p7 a patched", "p3 b edited",
                "kept marked for deletion: true", "marked once: true", "moved: [p9 a odd]", "nobody: []");
        // 2 namespaces x 20 pods, one deleted and created again, one deleted for good; one kept by its finalizer.
        assertThat(indexed.indexed()).isEqualTo(40);
    }

    /**
     * A list with {@code limit} comes in pages, as a real API server serves it: in storage-key order (namespace, then
     * name), each page from the state when the first was read and with its resourceVersion, a continue token while more
     * remain, and 410 Gone for a token the server does not know.
     */
    @Test
    void aListWithALimitComesInPagesOfOneState() {
        KubernetesClient client = indexedServer.createClient();
        for (String namespace : List.of("b", "a")) {
            IntStream.range(0, 12).forEach(i -> client.pods().inNamespace(namespace).resource(pod("p" + (char) ('a' + i), namespace, i % 2 == 0))
                    .create());
        }

        PodList first = client.pods().inAnyNamespace().withLabel("state", "even").list(new ListOptionsBuilder().withLimit(5L).build());
        client.pods().inNamespace("b").withName("pk").delete();
        client.pods().inNamespace("b").resource(pod("pz", "b", true)).create();
        List<PodList> pages = new ArrayList<>(List.of(first));
        while (pages.get(pages.size() - 1).getMetadata().getContinue() != null) {
            pages.add(client.pods().inAnyNamespace().withLabel("state", "even").list(new ListOptionsBuilder().withLimit(5L)
                    .withContinue(pages.get(pages.size() - 1).getMetadata().getContinue()).build()));
        }

        assertThat(pages).extracting(page -> page.getItems().size()).containsExactly(5, 5, 2);
        assertThat(pages).extracting(page -> page.getMetadata().getResourceVersion()).containsOnly(first.getMetadata().getResourceVersion());
        assertThat(pages.stream().flatMap(page -> page.getItems().stream()).map(pod -> pod.getMetadata().getNamespace() + "/"
                + pod.getMetadata().getName())).containsExactly("a/pa", "a/pc", "a/pe", "a/pg", "a/pi", "a/pk", "b/pa", "b/pc", "b/pe",
                        "b/pg", "b/pi", "b/pk");
        assertThat(catchThrowableOfType(KubernetesClientException.class, () -> client.pods().inAnyNamespace()
                .list(new ListOptionsBuilder().withLimit(5L).withContinue(first.getMetadata().getContinue()).build())).getCode())
                .isEqualTo(410);
    }

    /** An informer that lists in pages (as the collector's do) takes the whole collection, then watches from its version. */
    @Test
    void anInformerListingInPagesHoldsEveryObjectAndThenWatches() {
        KubernetesClient client = indexedServer.createClient();
        IntStream.range(0, 23).forEach(i -> client.pods().inNamespace("a").resource(pod("p" + i, "a", true)).create());
        int before = indexedServer.getRequestCount();

        try (SharedIndexInformer<Pod> informer = client.pods().inNamespace("a").withLimit(5L).inform()) {
            assertThat(indexedServer.getRequestCount() - before).as("five pages and a watch").isEqualTo(6);
            assertThat(informer.getStore().list()).hasSize(23);
            client.pods().inNamespace("a").resource(pod("p23", "a", false)).create();
            org.awaitility.Awaitility.await().until(() -> informer.getStore().list().size() == 24);
        }
    }

    /** What a script of API calls saw, each answer reduced to what does not depend on the store's counters or clock. */
    private static List<String> script(KubernetesClient client) {
        List<String> seen = new ArrayList<>();
        for (String namespace : List.of("a", "b")) {
            IntStream.range(0, 20).forEach(i -> client.pods().inNamespace(namespace).resource(pod("p" + i, namespace, i % 2 == 0)).create());
        }
        Function<Pod, String> describe = pod -> pod == null ? "404"
                : pod.getMetadata().getName() + " " + pod.getMetadata().getNamespace() + " " + pod.getMetadata().getLabels().get("state");
        seen.add(describe.apply(client.pods().inNamespace("b").withName("p7").get()));
        seen.add(describe.apply(client.pods().inNamespace("c").withName("p7").get()));
        client.pods().inNamespace("a").withName("p7").patch(PatchContext.of(PatchType.JSON),
                "[{\"op\":\"replace\",\"path\":\"/metadata/labels/state\",\"value\":\"patched\"}]");
        seen.add(describe.apply(client.pods().inNamespace("a").withName("p7").get()));
        seen.add(describe.apply(client.pods().inNamespace("b").withName("p7").get()));
        client.pods().inNamespace("b").withName("p3").edit(pod -> new PodBuilder(pod).editMetadata().addToLabels("state", "edited").endMetadata()
                .build());
        seen.add(describe.apply(client.pods().inNamespace("b").withName("p3").get()));
        seen.add(String.valueOf(catchThrowableOfType(KubernetesClientException.class,
                () -> client.pods().inNamespace("a").resource(pod("p1", "a", true)).create()).getCode()));
        seen.add(String.valueOf(catchThrowableOfType(KubernetesClientException.class, () -> client.pods().inNamespace("a").withName("p99")
                .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"remove\",\"path\":\"/metadata/labels/state\"}]")).getCode()));
        seen.add(String.valueOf(client.pods().inNamespace("a").withName("p5").delete().size()));
        seen.add(describe.apply(client.pods().inNamespace("a").withName("p5").get()));
        seen.add(String.valueOf(client.pods().inNamespace("a").withName("p5").delete().size()));
        client.pods().inNamespace("a").resource(pod("p5", "a", false)).create();
        seen.add(describe.apply(client.pods().inNamespace("a").withName("p5").get()));
        client.pods().inNamespace("b").withName("p0").delete();
        client.pods().inNamespace("b").resource(new PodBuilder(pod("kept", "b", true)).editMetadata().addToFinalizers("example.com/keep")
                .endMetadata().build()).create();
        client.pods().inNamespace("b").withName("kept").delete();
        seen.add("kept marked for deletion: " + client.pods().inNamespace("b").withName("kept").get().isMarkedForDeletion());
        String marked = client.pods().inNamespace("b").withName("kept").get().getMetadata().getDeletionTimestamp();
        client.pods().inNamespace("b").withName("kept").delete();
        seen.add("marked once: " + marked.equals(client.pods().inNamespace("b").withName("kept").get().getMetadata().getDeletionTimestamp()));
        // Lists by the indexed label: one cluster's pods, a pod moved to another cluster, a cluster without pods.
        client.pods().inNamespace("a").withName("p9").patch(PatchContext.of(PatchType.JSON),
                "[{\"op\":\"replace\",\"path\":\"/metadata/labels/ray.io~1cluster\",\"value\":\"moved\"}]");
        for (String cluster : List.of("a-even", "a-odd", "moved", "b-even", "nobody")) {
            seen.add(cluster + ": " + client.pods().inAnyNamespace().withLabel("ray.io/cluster", cluster).list().getItems().stream().map(describe)
                    .sorted().toList());
        }
        seen.add("a-odd in a, state odd: " + client.pods().inNamespace("a").withLabel("ray.io/cluster", "a-odd").withLabel("state", "odd").list()
                .getItems().stream().map(describe).sorted().toList());
        seen.add(client.pods().inNamespace("a").withLabel("state", "even").list().getItems().stream().map(describe).sorted().toList().toString());
        seen.add(client.pods().inAnyNamespace().list().getItems().stream().map(describe).sorted().toList().toString());
        return seen;
    }

    private static Pod pod(String name, String namespace, boolean even) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).addToLabels("state", even ? "even" : "odd")
                .addToLabels("ray.io/cluster", namespace + (even ? "-even" : "-odd")).endMetadata().build();
    }

    private static KubernetesMockServer server(KubernetesCrudDispatcher dispatcher) {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        try {
            server.init(InetAddress.getByName("127.0.0.1"), 0);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        return server;
    }
}
