package dev.rayscale.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** What a bench reads about a running service: its CPU time and resident memory from /proc, its metrics from /q/metrics. */
public final class ProcessStats {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ProcessStats() {
    }

    /** utime + stime of the process, in clock ticks (1/100 s). */
    public static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid, e);
        }
    }

    /** Resident memory of the process, in KiB. */
    public static long rssKiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
            return -1;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the memory of process " + pid, e);
        }
    }

    /** The service's Prometheus samples, by series (name and labels). */
    public static Map<String, Double> metrics(int port) throws IOException, InterruptedException {
        String body = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> values = new TreeMap<>();
        for (String line : body.split("\n")) {
            if (!line.startsWith("#") && line.contains(" ")) {
                int space = line.lastIndexOf(' ');
                try {
                    values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
                } catch (NumberFormatException ignored) {
                    // not a sample line
                }
            }
        }
        return values;
    }
}
