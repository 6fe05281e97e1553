package dev.rayscale.bench;

import dev.rayscale.demo.ProcessStats;
import dev.rayscale.demo.RayscaleServices;
import dev.rayscale.demo.RayscaleServices.Member;
import dev.rayscale.demo.RayscaleServices.Service;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One instance's part of its service's load: the records it handled and its CPU, over the measured window (an instance
 * stopped and started again halfway counts both its runs: {@link HandledRecords}).
 *
 * @param records snapshots planned or skipped (a planner), decisions answered (an actuator); -1 if its metrics could not be read
 */
public record InstanceShare(Member member, long records, double cores) {

    /** The series a service's handled records are counted in, by the start of their names. */
    private static final Map<Service, List<String>> RECORDS = Map.of(
            Service.PLANNER, List.of("rayscale_planner_evaluations_total", "rayscale_planner_snapshots_skipped_total"),
            Service.ACTUATOR, List.of("rayscale_actuator_outcomes_total"));

    /** The shares of every planner and actuator instance, when a service has more than one; none otherwise. */
    static List<InstanceShare> read(HandledRecords records, Map<Member, Double> cores) {
        List<InstanceShare> shares = new ArrayList<>();
        for (Map.Entry<Member, Double> entry : cores.entrySet()) {
            Member member = entry.getKey();
            boolean shared = cores.keySet().stream().filter(other -> other.service() == member.service()).count() > 1;
            if (shared && RECORDS.containsKey(member.service())) {
                shares.add(new InstanceShare(member, records.measured(member), entry.getValue()));
            }
        }
        return shares;
    }

    /** The records {@code member} counted since its last start (0 for a service whose records are not counted); -1 if unread. */
    static long counted(RayscaleServices services, Member member) {
        if (!RECORDS.containsKey(member.service())) {
            return 0;
        }
        try {
            Map<String, Double> samples = ProcessStats.metrics(services.port(member));
            return Math.round(samples.entrySet().stream()
                    .filter(sample -> RECORDS.get(member.service()).stream().anyMatch(series -> sample.getKey().startsWith(series)))
                    .mapToDouble(Map.Entry::getValue).sum());
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** A line per instance: its records and CPU, each with its part of its service's whole. */
    static List<String> lines(List<InstanceShare> shares) {
        if (shares.isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%-24s %12s %6s %10s %6s", "each instance's share", "records", "", "CPU cores", ""));
        for (InstanceShare share : shares) {
            long records = shares.stream().filter(other -> other.member().service() == share.member().service())
                    .mapToLong(other -> Math.max(0, other.records())).sum();
            double cores = shares.stream().filter(other -> other.member().service() == share.member().service())
                    .mapToDouble(InstanceShare::cores).sum();
            lines.add(String.format(Locale.ROOT, "  %-22s %,12d %5.0f%% %10.2f %5.0f%%", share.member().name(), share.records(),
                    percent(share.records(), records), share.cores(), percent(share.cores(), cores)));
        }
        lines.add("  (over the measured window, a restarted instance's two runs together; records from its metrics: snapshots planned "
                + "or skipped, decisions answered)");
        return lines;
    }

    private static double percent(double part, double whole) {
        return whole <= 0 || part < 0 ? Double.NaN : 100 * part / whole;
    }
}
