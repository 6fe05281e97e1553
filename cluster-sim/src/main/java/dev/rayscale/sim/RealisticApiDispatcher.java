package dev.rayscale.sim;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;

/**
 * The mock API server's CRUD behaviour, with one gap closed: a JSON Patch whose {@code test}
 * operation fails is answered 422 Unprocessable Entity, as a real API server answers it (the mock
 * otherwise never answers). Compare-and-set patches then fail fast in the simulator too. Faults, when
 * asked for ({@link ApiFaults}), take the place of some answers.
 */
final class RealisticApiDispatcher extends KubernetesCrudDispatcher {

    private final ApiFaults faults;

    RealisticApiDispatcher(ApiFaults faults) {
        super(List.of());
        this.faults = faults;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        return faults.answer(request, () -> super.dispatch(request));
    }

    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        try {
            return super.handlePatch(request);
        } catch (RuntimeException failed) {
            String message = String.valueOf(failed.getMessage()).replace("\"", "'");
            return new MockResponse().setResponseCode(422).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    + "\"reason\":\"Invalid\",\"code\":422,\"message\":\"" + message + "\"}");
        }
    }
}
