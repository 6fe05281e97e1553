package dev.rayscale.testsupport;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The Kubernetes API calls a service made in its tests, as RBAC grants ({@code resource.group -> verbs}, {@code pods.} for
 * the core group), so that a test can hold the grants deploy/README.md documents (and the chart renders,
 * {@link DocumentedPermissions}) to the calls the code makes: none made without a grant, no grant without a call.
 *
 * <p>The mock API server records every request; a test makes its own (creating clusters, reading what was written) with
 * {@link #setupClient}, whose user agent tells them apart from the service's.
 */
public final class KubernetesCalls {

    static final String SETUP_AGENT = "rayscale-test-setup";

    private KubernetesCalls() {
    }

    /**
     * A client of the mock API server for a test's own requests, left out of what {@link #drain} reports; it reads and
     * writes JSON as the service's client does (a service's customised serialisation included).
     */
    public static KubernetesClient setupClient(KubernetesClient serviceClient) {
        Config config = new ConfigBuilder(serviceClient.getConfiguration()).withUserAgent(SETUP_AGENT).build();
        return new KubernetesClientBuilder().withConfig(config).withKubernetesSerialization(serviceClient.getKubernetesSerialization()).build();
    }

    /**
     * The calls one service made over a test class, against the grants deploy/README.md documents for it (the "only for"
     * ones included): each test checks that it made none without a grant, and the class, once all its tests ran, that it
     * used every grant.
     */
    public static final class Ledger {

        private final Map<String, Set<String>> granted;
        private final Map<String, Set<String>> made = new TreeMap<>();

        public Ledger(String service) {
            try {
                granted = DocumentedPermissions.read(Path.of("..", "deploy", "README.md"), true).get(service);
            } catch (IOException unreadable) {
                throw new UncheckedIOException(unreadable);
            }
        }

        /** Takes the calls recorded since the last time, and returns those, of all taken so far, without a grant. */
        public Map<String, Set<String>> ungranted(KubernetesMockServer server) throws InterruptedException {
            drain(server).forEach((resource, verbs) -> made.computeIfAbsent(resource, key -> new TreeSet<>()).addAll(verbs));
            return minus(made, granted);
        }

        /** The grants no call taken so far needed. */
        public Map<String, Set<String>> unused() {
            return minus(granted, made);
        }

        private static Map<String, Set<String>> minus(Map<String, Set<String>> these, Map<String, Set<String>> those) {
            Map<String, Set<String>> left = new TreeMap<>();
            these.forEach((resource, verbs) -> {
                Set<String> extra = new TreeSet<>(verbs);
                extra.removeAll(those.getOrDefault(resource, Set.of()));
                if (!extra.isEmpty()) {
                    left.put(resource, extra);
                }
            });
            return left;
        }
    }

    /** Takes every request the server recorded since the last drain, and returns the service's as grants. */
    public static Map<String, Set<String>> drain(KubernetesMockServer server) throws InterruptedException {
        Map<String, Set<String>> grants = new TreeMap<>();
        RecordedRequest request;
        while ((request = server.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
            String agent = request.getHeader("User-Agent");
            if (agent != null && agent.startsWith(SETUP_AGENT)) {
                continue;
            }
            Grant grant = Grant.of(request.getMethod(), request.getPath());
            if (grant != null) {
                grants.computeIfAbsent(grant.resource(), key -> new TreeSet<>()).add(grant.verb());
            }
        }
        return grants;
    }

    /** One request as the RBAC verb on a resource it needs; discovery and /version, which every identity may read, need none. */
    record Grant(String resource, String verb) {

        static Grant of(String method, String pathAndQuery) {
            int question = pathAndQuery.indexOf('?');
            String path = question < 0 ? pathAndQuery : pathAndQuery.substring(0, question);
            String query = question < 0 ? "" : pathAndQuery.substring(question + 1);
            String[] parts = path.replaceFirst("^/", "").split("/");
            String group;
            int rest;
            if (parts[0].equals("api") && parts.length > 2) {
                group = "";
                rest = 2;
            } else if (parts[0].equals("apis") && parts.length > 3) {
                group = parts[1];
                rest = 3;
            } else {
                return null;
            }
            if (parts[rest].equals("namespaces") && parts.length > rest + 2) {
                rest += 2;
            } else if (parts[rest].equals("namespaces")) {
                return new Grant("namespaces." + group, verb(method, parts.length > rest + 1, query));
            }
            String resource = parts[rest] + (parts.length > rest + 2 ? "/" + parts[rest + 2] : "");
            return new Grant(resource + "." + group, verb(method, parts.length > rest + 1, query));
        }

        private static String verb(String method, boolean named, String query) {
            return switch (method) {
                case "GET" -> named ? "get" : query.contains("watch=true") ? "watch" : "list";
                case "POST" -> "create";
                case "PUT" -> "update";
                case "PATCH" -> "patch";
                case "DELETE" -> named ? "delete" : "deletecollection";
                default -> method.toLowerCase(java.util.Locale.ROOT);
            };
        }
    }
}
