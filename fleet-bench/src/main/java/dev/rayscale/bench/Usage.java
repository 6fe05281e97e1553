package dev.rayscale.bench;

import dev.rayscale.demo.ProcessStats;
import dev.rayscale.demo.RayscaleServices;
import dev.rayscale.demo.RayscaleServices.Member;
import dev.rayscale.demo.RayscaleServices.Service;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * CPU and resident memory of the services' processes over the measured window, sampled from /proc:
 * CPU as the ticks each process (a restarted copy is a new process) spent between its first and last
 * sample in the window, memory as the largest resident set any copy of a service reached.
 */
public final class Usage {

    /** One service over the window: its copies' CPU together, in cores, and the largest resident set of one copy. */
    public record Figures(double cores, long rssMiB) {
    }

    private final RayscaleServices services;
    private final List<Member> members;
    private final Map<Long, long[]> ticksByPid = new HashMap<>();
    private final Map<Long, Member> memberByPid = new HashMap<>();
    private final Map<Service, Long> rssKiB = new EnumMap<>(Service.class);
    private volatile boolean measuring;
    private double seconds = Double.NaN;

    Usage(RayscaleServices services, List<Member> members) {
        this.services = services;
        this.members = members;
    }

    synchronized void begin() {
        measuring = true;
        sample();
    }

    synchronized void sample() {
        if (!measuring) {
            return;
        }
        for (Member member : members) {
            long pid = services.pid(member);
            if (pid < 0) {
                continue;
            }
            try {
                long ticks = ProcessStats.cpuTicks(pid);
                long rss = ProcessStats.rssKiB(pid);
                ticksByPid.computeIfAbsent(pid, key -> new long[] {ticks, ticks})[1] = ticks;
                memberByPid.put(pid, member);
                rssKiB.merge(member.service(), rss, Math::max);
            } catch (UncheckedIOException exited) {
                // stopped between listing and reading: its last sample stands
            }
        }
    }

    synchronized void end(double windowSeconds) {
        sample();
        measuring = false;
        seconds = windowSeconds;
    }

    synchronized Map<Service, Figures> figures() {
        Map<Service, Figures> figures = new EnumMap<>(Service.class);
        for (Service service : Service.values()) {
            figures.put(service, new Figures(cores(member -> member.service() == service), rssKiB.getOrDefault(service, 0L) / 1024));
        }
        return figures;
    }

    /** Each copy's CPU over the window, in cores (a restarted copy's processes together). */
    synchronized Map<Member, Double> coresByMember() {
        Map<Member, Double> cores = new LinkedHashMap<>();
        members.forEach(member -> cores.put(member, cores(member::equals)));
        return cores;
    }

    private double cores(Predicate<Member> which) {
        long ticks = ticksByPid.entrySet().stream().filter(e -> which.test(memberByPid.get(e.getKey())))
                .mapToLong(e -> e.getValue()[1] - e.getValue()[0]).sum();
        return ticks / 100.0 / seconds;
    }
}
