package dev.rayscale.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kubernetes API access deploy/README.md promises each service ("Permissions"), read from its table, so that the
 * chart (deploy's ChartTest) and the calls the services make ({@link KubernetesCalls}) are held to what the documentation
 * says and not to a second copy of it.
 */
public final class DocumentedPermissions {

    private static final Pattern GRANT = Pattern.compile("`([^`]+)`: ([a-z, ]+)(\\(only[^)]*\\))?");

    private DocumentedPermissions() {
    }

    /**
     * Per service, {@code resource.group -> verbs} ({@code pods.} for the core group); with the grants documented as
     * "only for ..." left out when {@code conditional} is false.
     */
    public static Map<String, Map<String, Set<String>>> read(Path readme, boolean conditional) throws IOException {
        Map<String, Map<String, Set<String>>> services = new TreeMap<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(readme)) {
            if (line.startsWith("| service | Kubernetes API access |")) {
                inTable = true;
                continue;
            }
            if (!inTable || line.startsWith("|---")) {
                continue;
            }
            if (!line.startsWith("|")) {
                break;
            }
            String[] cells = line.split("\\|");
            String service = cells[1].trim();
            Map<String, Set<String>> grants = new TreeMap<>();
            Matcher grant = GRANT.matcher(cells[2]);
            while (grant.find()) {
                if (grant.group(3) != null && !conditional) {
                    continue;
                }
                String resource = grant.group(1).contains(".") ? grant.group(1) : grant.group(1) + ".";
                Set<String> verbs = new TreeSet<>();
                for (String verb : grant.group(2).split(",")) {
                    verbs.add(verb.trim());
                }
                grants.put(resource, verbs);
            }
            services.put(service, grants);
        }
        if (services.isEmpty()) {
            throw new IllegalStateException("deploy/README.md has no Permissions table");
        }
        return services;
    }
}
