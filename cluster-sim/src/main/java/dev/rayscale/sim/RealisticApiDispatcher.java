package dev.rayscale.sim;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.regex.Pattern;

/**
 * The mock API server's CRUD behaviour (objects named in a request found by key, {@link IndexedCrudDispatcher}), with one
 * gap closed: a JSON Patch whose {@code test} operation fails is answered 422 Unprocessable Entity, as a real API server
 * answers it (the mock otherwise never answers). Compare-and-set patches then fail fast in the simulator too. Faults, when
 * asked for ({@link ApiFaults}), take the place of some answers.
 */
final class RealisticApiDispatcher extends IndexedCrudDispatcher {

    private static final Pattern EVENTS = Pattern.compile("/api/v1/namespaces/[^/]+/events(\\?.*)?");

    private final ApiFaults faults;
    private final boolean keepsEvents;
    private final RayscaleRequests requests = new RayscaleRequests();

    RealisticApiDispatcher(ApiFaults faults) {
        this(faults, true);
    }

    /**
     * @param keepsEvents false for a fleet's API server: Events are accepted and not kept, as if they expired at once. A
     *     real API server keeps them apart (indexed, expiring after an hour); this mock scans every stored object on
     *     every request, so the tens of thousands of Events a fleet's scaling records would slow every read of a pod
     *     or a RayCluster, which a real one does not.
     */
    RealisticApiDispatcher(ApiFaults faults, boolean keepsEvents) {
        this.faults = faults;
        this.keepsEvents = keepsEvents;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (!keepsEvents && request.getMethod().equals("POST") && EVENTS.matcher(request.getPath()).matches()) {
            return new MockResponse().setResponseCode(201).setBody(request.getBody().readUtf8());
        }
        requests.arrived(request);
        return faults.answer(request, () -> super.dispatch(request));
    }

    /** When Rayscale last read a cluster's pods and patched its RayCluster. */
    RayscaleRequests requests() {
        return requests;
    }

    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        try {
            MockResponse answer = super.handlePatch(request);
            if (answer.code() / 100 == 2) {
                requests.patched(request);
            }
            return answer;
        } catch (RuntimeException failed) {
            String message = String.valueOf(failed.getMessage()).replace("\"", "'");
            return new MockResponse().setResponseCode(422).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    + "\"reason\":\"Invalid\",\"code\":422,\"message\":\"" + message + "\"}");
        }
    }
}
