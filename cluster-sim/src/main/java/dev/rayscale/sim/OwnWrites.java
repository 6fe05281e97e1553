package dev.rayscale.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;

/**
 * A simulated cluster's own hot writes (the kubelet's pods and their status, the operator's status), handed to the API
 * server's dispatcher as the requests a client would send, without a client. fabric8's client reads the object before
 * every patch by name and parses every answer into objects: a fleet's kubelets spent most of their time there
 * (docs/fleet-bench-log.md, 2026-12-05), on answers nothing reads. The requests, and so the API server's semantics, are the
 * same; each answer is checked, and one that is not a success fails the write as the client's would.
 */
final class OwnWrites {

    private static final String JSON_PATCH = "application/json-patch+json";

    private final Dispatcher dispatcher;
    private final KubernetesSerialization serialization = new KubernetesSerialization();

    OwnWrites(Dispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    /** Creates {@code object} in {@code collection} (e.g. {@code /api/v1/namespaces/ns/pods}). */
    void create(String collection, HasMetadata object) {
        require(send(HttpMethod.POST, collection, "application/json", serialization.asJson(object)), "create", collection);
    }

    /** Applies a JSON Patch ({@code operations}, a JSON array) to the object at {@code path}. */
    void jsonPatch(String path, String operations) {
        require(send(HttpMethod.PATCH, path, JSON_PATCH, operations), "patch", path);
    }

    /** Applies a JSON Patch of {@code operations}, serialized from objects (maps, model objects), to the object at {@code path}. */
    void jsonPatch(String path, Object operations) {
        jsonPatch(path, serialization.asJson(operations));
    }

    /** Deletes the object at {@code path}; false if there was none (as a client's delete answers NotFound). */
    boolean delete(String path) {
        MockResponse answer = send(HttpMethod.DELETE, path, null, "");
        if (answer.code() == HttpURLConnection.HTTP_NOT_FOUND) {
            return false;
        }
        require(answer, "delete", path);
        return true;
    }

    private MockResponse send(HttpMethod method, String path, String contentType, String body) {
        Headers.Builder headers = Headers.builder().add(ApiFaults.SIM_HEADER, "true");
        if (contentType != null) {
            headers.add("Content-Type", contentType);
        }
        return dispatcher.dispatch(new RecordedRequest("HTTP/1.1", method, path, headers.build(),
                new Buffer(body.getBytes(StandardCharsets.UTF_8))));
    }

    private static void require(MockResponse answer, String what, String path) {
        if (answer.code() / 100 != 2) {
            String body = answer.getBody() == null ? "" : new String(answer.getBody().getBytes(), StandardCharsets.UTF_8);
            throw new IllegalStateException("the simulated API server refused a " + what + " of " + path + ": " + answer.code() + " " + body);
        }
    }
}
