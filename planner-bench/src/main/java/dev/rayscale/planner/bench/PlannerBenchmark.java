package dev.rayscale.planner.bench;

import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Packing;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.planner.core.PlannerSettings;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One plan of a generated cluster, single-threaded. Sizes: nodes / pending demands (in 20 shapes), or
 * nodes / placement groups of 4 bundles with mixed strategies; five worker types each; Ray's packing and
 * economical packing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:ActiveProcessorCount=1", "-Xmx1g"})
public class PlannerBenchmark {

    @Param({"100n-1k", "1kn-10k", "2kn-100k", "100n-1kpg"})
    public String workload;

    @Param({"ray", "economical"})
    public String packing;

    private ClusterSnapshot snapshot;
    private Planner planner;

    @Setup
    public void generate() {
        snapshot = Workloads.named(workload);
        planner = new Planner(PlannerSettings.defaults("bench").withPacking(Packing.valueOf(packing.toUpperCase(Locale.ROOT))));
    }

    @Benchmark
    public ScaleDecision plan() {
        return planner.plan(snapshot);
    }
}
