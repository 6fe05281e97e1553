package dev.rayscale.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClusterReadersTest {

    /** Records the types it is asked to read; reading waits for {@code go}, or fails if {@code fail}. */
    static final class Serialization extends KubernetesSerialization {

        final List<Class<?>> read = new CopyOnWriteArrayList<>();
        final CountDownLatch reading = new CountDownLatch(1);
        final CountDownLatch go;
        final boolean fail;

        Serialization(CountDownLatch go, boolean fail) {
            this.go = go;
            this.fail = fail;
        }

        @Override
        public <T> T unmarshal(String text, Class<T> type) {
            read.add(type);
            reading.countDown();
            try {
                go.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            if (fail) {
                throw new IllegalStateException("no reader for " + type.getSimpleName());
            }
            return super.unmarshal(text, type);
        }
    }

    private static KubernetesClient clientWith(KubernetesSerialization serialization) {
        return (KubernetesClient) Proxy.newProxyInstance(ClusterReadersTest.class.getClassLoader(), new Class<?>[] {KubernetesClient.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getKubernetesSerialization")) {
                        return serialization;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aCallerThatComesWhileAnotherBuildsThemWaitsForItAndTheyAreBuiltOnce() throws Exception {
        Serialization serialization = new Serialization(new CountDownLatch(1), false);
        ClusterReaders readers = new ClusterReaders(clientWith(serialization));

        CompletableFuture<Boolean> warmUp = CompletableFuture.supplyAsync(readers::build);
        assertThat(serialization.reading.await(30, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> request = new CompletableFuture<>();
        Thread requester = new Thread(() -> request.complete(readers.build()), "requester");
        requester.start();
        await().atMost(30, TimeUnit.SECONDS).until(() -> requester.getState() == Thread.State.BLOCKED);
        assertThat(request).isNotDone();

        serialization.go.countDown();
        assertThat(warmUp.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(request.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(readers.build()).isTrue();
        assertThat(serialization.read).hasSize(3).doesNotHaveDuplicates();
    }

    @Test
    void aFailureIsSaidAndNotTriedAgain() {
        CountDownLatch open = new CountDownLatch(0);
        Serialization serialization = new Serialization(open, true);
        ClusterReaders readers = new ClusterReaders(clientWith(serialization));

        assertThat(readers.build()).isFalse();
        assertThat(readers.build()).isFalse();
        assertThat(serialization.read).hasSize(1);
    }
}
