package dev.rayscale.sim;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpClient;
import io.fabric8.kubernetes.client.http.StandardHttpClientBuilder;
import io.fabric8.kubernetes.client.http.StandardHttpHeaders;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.StandardWebSocketBuilder;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The HTTP client of a simulated cluster's own parts (operator, kubelet, owners): each request is handed to the simulated
 * API server's dispatcher on the calling thread, as the same request over HTTP would be, without the HTTP.
 *
 * <p>Why: fabric8's mock server answers every HTTP request on one Vert.x event loop. A fleet's kubelets and operators
 * then queued behind each other and behind Rayscale on that one thread (63-83 ms a call under load, docs/fleet-bench-log.md),
 * and every cluster's pods came up late. The real cluster's parts are separate processes, each with its own connection to
 * an API server that serves them concurrently. Here they call the dispatcher concurrently, its store's own locks keeping
 * its semantics; Rayscale still talks HTTP, through the server as before. Watches are not served (the parts read from
 * their own caches or a fleet's informer, which has an HTTP client of its own).
 */
final class InProcessHttpClient extends StandardHttpClient<InProcessHttpClient, InProcessHttpClient.Factory, InProcessHttpClient.Builder> {

    private final Dispatcher dispatcher;

    private InProcessHttpClient(Builder builder, Dispatcher dispatcher) {
        super(builder, new AtomicBoolean());
        this.dispatcher = dispatcher;
    }

    /** Makes clients that call {@code dispatcher} directly. */
    static Factory factory(Dispatcher dispatcher) {
        return new Factory(dispatcher);
    }

    @Override
    public CompletableFuture<HttpResponse<AsyncBody>> consumeBytesDirect(StandardHttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        try {
            MockResponse answer = dispatcher.dispatch(recorded(request));
            byte[] body = answer.getBody() == null ? new byte[0] : answer.getBody().getBytes();
            return CompletableFuture.completedFuture(new Response(answer.code(), answer.getHeaders().toMultimap(), new Body(body, consumer), request));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static RecordedRequest recorded(StandardHttpRequest request) {
        Headers.Builder headers = Headers.builder();
        request.headers().forEach((name, values) -> values.forEach(value -> headers.add(name, value)));
        if (request.getContentType() != null) {
            // Carried apart from the headers: an HTTP client puts it on the wire, and the server reads a patch's type there.
            headers.set(StandardHttpHeaders.CONTENT_TYPE, request.getContentType());
        }
        String query = request.uri().getRawQuery();
        String path = request.uri().getRawPath() + (query == null ? "" : "?" + query);
        return new RecordedRequest("HTTP/1.1", HttpMethod.valueOf(request.method()), path, headers.build(), new Buffer(bytes(request.body())));
    }

    private static byte[] bytes(StandardHttpRequest.BodyContent body) {
        if (body == null) {
            return new byte[0];
        }
        if (body instanceof StandardHttpRequest.StringBodyContent text) {
            return text.getContent().getBytes(StandardCharsets.UTF_8);
        }
        if (body instanceof StandardHttpRequest.ByteArrayBodyContent raw) {
            return raw.getContent();
        }
        throw new UnsupportedOperationException("a simulated cluster's part sent a body of " + body.getClass().getSimpleName()
                + ", which the in-process client does not carry");
    }

    @Override
    public CompletableFuture<WebSocketResponse> buildWebSocketDirect(StandardWebSocketBuilder builder, WebSocket.Listener listener) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("a simulated cluster's parts do not watch; "
                + "an informer needs a client over HTTP (KubernetesMockServer.createClient)"));
    }

    @Override
    protected void doClose() {
        // Nothing held: no connection, no thread.
    }

    /** The whole body, handed to the consumer at the first {@link #consume()}. */
    private static final class Body implements AsyncBody {

        private final byte[] bytes;
        private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private final AtomicBoolean delivered = new AtomicBoolean();

        Body(byte[] bytes, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
            this.bytes = bytes;
            this.consumer = consumer;
        }

        @Override
        public void consume() {
            // The consumer asks for more from inside its callback: there is no more.
            if (!delivered.compareAndSet(false, true)) {
                done.complete(null);
                return;
            }
            try {
                if (bytes.length > 0) {
                    consumer.consume(List.of(ByteBuffer.wrap(bytes)), this);
                }
                done.complete(null);
            } catch (Exception e) {
                done.completeExceptionally(e);
            }
        }

        @Override
        public CompletableFuture<Void> done() {
            return done;
        }

        @Override
        public void cancel() {
            done.cancel(false);
        }
    }

    private record Response(int code, Map<String, List<String>> headerMap, AsyncBody body, HttpRequest request) implements HttpResponse<AsyncBody> {

        @Override
        public List<String> headers(String key) {
            return new StandardHttpHeaders(headerMap).headers(key);
        }

        @Override
        public Map<String, List<String>> headers() {
            return headerMap;
        }

        @Override
        public Optional<HttpResponse<?>> previousResponse() {
            return Optional.empty();
        }
    }

    static final class Factory implements HttpClient.Factory {

        private final Dispatcher dispatcher;

        private Factory(Dispatcher dispatcher) {
            this.dispatcher = dispatcher;
        }

        @Override
        public Builder newBuilder() {
            return new Builder(this);
        }
    }

    static final class Builder extends StandardHttpClientBuilder<InProcessHttpClient, Factory, Builder> {

        private Builder(Factory factory) {
            super(factory);
        }

        @Override
        protected Builder newInstance(Factory factory) {
            return new Builder(factory);
        }

        @Override
        public InProcessHttpClient build() {
            if (client != null) {
                return new InProcessHttpClient(this, client.dispatcher);
            }
            return new InProcessHttpClient(this, clientFactory.dispatcher);
        }
    }
}
