package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.demo.RayscaleServices;
import dev.rayscale.demo.RayscaleServices.Service;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics the Helm chart's dashboard and alert rules query (deploy/helm/rayscale/files), held against what the
 * running services expose on /q/metrics: a renamed or missing metric would leave a panel empty or an alert silent.
 */
final class OperationsMetrics {

    static final Path FILES = ClosedLoops.ROOT.resolve("deploy/helm/rayscale/files");
    private static final Pattern METRIC = Pattern.compile("\\b((?:rayscale|kafka|grpc)_[a-z0-9_]+)");
    /** A sample's name, or a family's (a histogram's name without _bucket, _count, _sum) from its TYPE line. */
    private static final Pattern EXPOSED = Pattern.compile("^(?:# TYPE )?([a-zA-Z_:][a-zA-Z0-9_:]*)", Pattern.MULTILINE);

    private OperationsMetrics() {
    }

    /** Every metric name in the dashboard's and the alerts' queries. */
    static Set<String> queried() throws IOException {
        Set<String> names = new TreeSet<>();
        for (String file : new String[] {"grafana-dashboard.json", "alerts.yaml"}) {
            String text = Files.readString(FILES.resolve(file));
            // The whole file: a metric an alert's description points to must exist as much as one a query reads.
            Matcher metric = METRIC.matcher(text);
            while (metric.find()) {
                names.add(metric.group(1));
            }
        }
        return names;
    }

    /** Every metric name the running services expose, over all three. */
    static Set<String> exposed(RayscaleServices services) throws IOException, InterruptedException {
        Set<String> names = new TreeSet<>();
        HttpClient http = HttpClient.newHttpClient();
        for (Service service : Service.values()) {
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + services.port(service) + "/q/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).as("%s /q/metrics", service).isEqualTo(200);
            Matcher name = EXPOSED.matcher(metrics.body());
            while (name.find()) {
                names.add(name.group(1));
            }
        }
        return names;
    }

    static void assertEveryQueriedMetricIsExposed(RayscaleServices services) throws IOException, InterruptedException {
        Set<String> queried = queried();
        assertThat(queried).as("the dashboard and alerts query Rayscale's and Kafka's metrics").hasSizeGreaterThan(10);
        assertThat(exposed(services)).as("metrics on the services' /q/metrics").containsAll(queried);
    }
}
