package dev.rayscale.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
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
                "kept marked for deletion: true");
        // 2 namespaces x 20 pods, one deleted and created again, one deleted for good; one kept by its finalizer.
        assertThat(indexed.indexed()).isEqualTo(40);
    }

    /** What a script of API calls saw, each answer reduced to what does not depend on the store's counters or clock. */
    private static List<String> script(KubernetesClient client) {
        List<String> seen = new java.util.ArrayList<>();
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
        seen.add(client.pods().inNamespace("a").withLabel("state", "even").list().getItems().stream().map(describe).sorted().toList().toString());
        seen.add(client.pods().inAnyNamespace().list().getItems().stream().map(describe).sorted().toList().toString());
        return seen;
    }

    private static Pod pod(String name, String namespace, boolean even) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).addToLabels("state", even ? "even" : "odd")
                .endMetadata().build();
    }

    private static KubernetesMockServer server(KubernetesCrudDispatcher dispatcher) {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        try {
            server.init(InetAddress.getByName("127.0.0.1"), 0);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        return server;
    }
}
