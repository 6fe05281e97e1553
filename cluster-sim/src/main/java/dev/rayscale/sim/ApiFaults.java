package dev.rayscale.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The failures a real API server gives a client writing a RayCluster, injected with a probability on
 * the GET and PATCH of a named RayCluster by anyone but the simulated cluster's own parts (which send
 * {@link #SIM_HEADER}): conflicts (409), failed preconditions (422), internal errors (500), overload
 * (429, 503), requests that time out without being applied, and — the hard ones — writes that were
 * applied but whose answer is lost (the client times out) or is an error (503 after the write).
 * Optionally the first scale-down PATCH (one naming workers to delete) meets a 409, once, whatever the
 * probability. Faults are drawn from a seeded generator, so a run's sequence of faults is repeatable.
 */
public final class ApiFaults {

    /** Sent by the simulated cluster's own client. */
    public static final String SIM_HEADER = "X-Rayscale-Sim";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> READ_FAULTS = List.of("429", "500", "503", "timeout");
    private static final List<String> WRITE_FAULTS = List.of("409", "422", "500", "503", "timeout", "applied-then-503", "applied-then-timeout");

    private final Map<String, Integer> injected = new TreeMap<>();
    private Random random = new Random(0);
    private double probability;
    private boolean scaleDownConflictArmed;
    private Runnable onPatch;
    private Instant scaleDownConflictSent;
    private Duration timeout = Duration.ofSeconds(7);

    /**
     * Injects a fault into each eligible request with {@code probability}.
     *
     * @param seed makes the sequence of faults repeatable
     * @param answerAfter how long a "timed out" request goes unanswered: longer than the client waits
     */
    public synchronized void inject(double probability, long seed, Duration answerAfter) {
        if (probability < 0 || probability > 1) {
            throw new IllegalArgumentException("a probability is between 0 and 1, not " + probability);
        }
        this.probability = probability;
        this.random = new Random(seed);
        this.timeout = answerAfter;
    }

    /** The next PATCH that names workers to delete is answered 409 Conflict and not applied. */
    public synchronized void conflictOnNextScaleDown() {
        scaleDownConflictArmed = true;
    }

    /** Runs {@code hook}, once, when the next RayCluster PATCH (not the simulator's own) arrives, before it is answered. */
    public synchronized void onNextPatch(Runnable hook) {
        onPatch = hook;
    }

    /** When the targeted scale-down conflict was answered; null until then. */
    public synchronized Instant scaleDownConflictSent() {
        return scaleDownConflictSent;
    }

    /** Faults injected so far, by kind ({@code GET 503}, {@code PATCH applied-then-timeout}, ...). */
    public synchronized Map<String, Integer> injected() {
        return Map.copyOf(injected);
    }

    /** The answer to {@code request}: the real one, or a fault in its place. */
    MockResponse answer(RecordedRequest request, Supplier<MockResponse> real) {
        Runnable hook = takePatchHook(request);
        if (hook != null) {
            hook.run();
        }
        String fault = draw(request);
        if (fault == null) {
            return real.get();
        }
        return switch (fault) {
            case "timeout" -> status(504, "Timeout", "injected fault: no answer in time").setBodyDelay(timeout);
            case "applied-then-503" -> {
                real.get();
                yield status(503, "ServiceUnavailable", "injected fault: the write was applied, the answer is an error");
            }
            case "applied-then-timeout" -> real.get().setBodyDelay(timeout);
            case "409" -> status(409, "Conflict", "injected fault: the object has been modified; please apply your changes to the latest version");
            case "422" -> status(422, "Invalid", "injected fault: the request is invalid");
            case "429" -> status(429, "TooManyRequests", "injected fault: the server has received too many requests").setHeader("Retry-After", "1");
            default -> status(Integer.parseInt(fault), fault.equals("500") ? "InternalError" : "ServiceUnavailable",
                    "injected fault: etcdserver: request timed out");
        };
    }

    private synchronized Runnable takePatchHook(RecordedRequest request) {
        Runnable hook = onPatch != null && request.getMethod().equals("PATCH") && eligible(request) ? onPatch : null;
        if (hook != null) {
            onPatch = null;
        }
        return hook;
    }

    /** A request of the services' (not the simulator's own) that reads or writes a named RayCluster. */
    private static boolean eligible(RecordedRequest request) {
        String method = request.getMethod();
        return request.getHeader(SIM_HEADER) == null && RayscaleRequests.NAMED_RAYCLUSTER.matcher(request.getPath()).matches()
                && !request.getPath().contains("watch=") && (method.equals("GET") || method.equals("PATCH"));
    }

    private synchronized String draw(RecordedRequest request) {
        String method = request.getMethod();
        if (!eligible(request)) {
            return null;
        }
        String fault = null;
        // Read without consuming it: the real answer reads the body next.
        if (method.equals("PATCH") && scaleDownConflictArmed && request.getBody() != null
                && namesWorkersToDelete(new String(request.getBody().getBytes(), StandardCharsets.UTF_8))) {
            scaleDownConflictArmed = false;
            scaleDownConflictSent = Instant.now();
            fault = "409";
        } else if (probability > 0 && random.nextDouble() < probability) {
            List<String> faults = method.equals("GET") ? READ_FAULTS : WRITE_FAULTS;
            fault = faults.get(random.nextInt(faults.size()));
        }
        if (fault != null) {
            injected.merge(method + " " + fault, 1, Integer::sum);
        }
        return fault;
    }

    /** A JSON Patch that sets a non-empty {@code scaleStrategy.workersToDelete}. */
    static boolean namesWorkersToDelete(String body) {
        try {
            for (JsonNode op : JSON.readTree(body)) {
                JsonNode names = op.path("value").path("workersToDelete");
                if (op.path("op").asText().equals("add") && op.path("path").asText().endsWith("/scaleStrategy") && names.size() > 0) {
                    return true;
                }
            }
            return false;
        } catch (IOException notJsonPatch) {
            return false;
        }
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\""
                + reason + "\",\"code\":" + code + ",\"message\":\"" + message + "\"}");
    }
}
