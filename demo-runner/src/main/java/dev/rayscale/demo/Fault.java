package dev.rayscale.demo;

import dev.rayscale.demo.RayscaleServices.Service;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A fault to inject into a demo run, as given on the command line: {@code NAME[=ARG]}.
 *
 * @param kind what goes wrong
 * @param argument the service to kill, the API fault probability, the GCS fault's length in simulated seconds, or the
 *                 broker's downtime in seconds
 */
public record Fault(Kind kind, String argument) {

    public enum Kind {
        /** 1,000 bad records on each input topic. */
        POISON("poison", null),
        /** The broker is killed (SIGKILL) and started again on the same data after this many (real) seconds. */
        BROKER_RESTART("broker-restart", "5"),
        /**
         * The broker is killed (SIGKILL) while the actuator patches a RayCluster, so that the decision's result waits for
         * it, and started again on the same data after this many (real) seconds: longer than SmallRye lets a record go
         * unacknowledged by default (60 s). Not part of {@code all}, which already restarts the broker.
         */
        BROKER_OUTAGE("broker-outage", "90"),
        /** A service is killed (SIGKILL) and started again; the actuator between a drain and its patch. */
        KILL("kill", null),
        /** RayCluster GETs and PATCHes fail with this probability; the first scale-down meets a conflict. */
        API_FAULTS("api-faults", "0.3"),
        /** Calls to the GCS fail for this many simulated seconds. */
        GCS_OUTAGE("gcs-outage", "60"),
        /** Calls to the GCS are never answered for this many simulated seconds. */
        GCS_HANG("gcs-hang", "60"),
        /** A second planner and actuator join their consumer groups, then leave. */
        REBALANCE("rebalance", null);

        final String name;
        final String defaultArgument;

        Kind(String name, String defaultArgument) {
            this.name = name;
            this.defaultArgument = defaultArgument;
        }
    }

    /** Every fault at once: {@code --fault all}. */
    public static final String ALL = "all";

    public Fault {
        switch (kind) {
            case KILL -> service(argument);
            case API_FAULTS -> {
                double probability = number(argument);
                if (probability <= 0 || probability > 1) {
                    throw new IllegalArgumentException("api-faults takes a probability in (0, 1], not " + argument);
                }
            }
            case GCS_OUTAGE, GCS_HANG -> {
                if (number(argument) <= 0) {
                    throw new IllegalArgumentException(kind.name + " takes a length in simulated seconds above 0, not " + argument);
                }
            }
            case BROKER_RESTART, BROKER_OUTAGE -> {
                if (number(argument) < 0) {
                    throw new IllegalArgumentException(kind.name + " takes the seconds the broker stays down, 0 or more, not " + argument);
                }
            }
            default -> {
                if (argument != null) {
                    throw new IllegalArgumentException(kind.name + " takes no argument");
                }
            }
        }
    }

    /** {@code NAME[=ARG]}, or {@code all} for every fault. */
    public static List<Fault> parse(String spec) {
        String text = spec.strip();
        if (text.equals(ALL)) {
            return all();
        }
        int equals = text.indexOf('=');
        String name = equals < 0 ? text : text.substring(0, equals);
        String argument = equals < 0 ? null : text.substring(equals + 1);
        Kind kind = Arrays.stream(Kind.values()).filter(k -> k.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fault named '" + name + "'; known: " + names()));
        return List.of(new Fault(kind, argument != null ? argument : kind.defaultArgument));
    }

    /** Every fault but a long broker outage, each service killed once. */
    public static List<Fault> all() {
        List<Fault> faults = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            if (kind == Kind.BROKER_OUTAGE) {
                continue;
            }
            if (kind == Kind.KILL) {
                Arrays.stream(Service.values()).forEach(service -> faults.add(new Fault(kind, service.module.replaceFirst("^.*-", ""))));
            } else {
                faults.add(new Fault(kind, kind.defaultArgument));
            }
        }
        return faults;
    }

    /** The service a {@code kill} fault names: {@code collector}, {@code planner} or {@code actuator} (or the module's name). */
    public Service service() {
        return service(argument);
    }

    /** Whether the fault kills the broker: a restart or an outage. */
    public boolean stopsTheBroker() {
        return kind == Kind.BROKER_RESTART || kind == Kind.BROKER_OUTAGE;
    }

    /** The wall-clock time the broker is down for this fault: none but for a broker restart or outage. */
    public Duration brokerDowntime() {
        return stopsTheBroker() ? Duration.ofMillis(Math.round(number() * 1000)) : Duration.ZERO;
    }

    /** The argument as a number: a probability, simulated seconds, or the broker's downtime in seconds. */
    public double number() {
        return number(argument);
    }

    private static Service service(String name) {
        if (name == null) {
            throw new IllegalArgumentException("kill takes the service to kill: collector, planner or actuator");
        }
        return Arrays.stream(Service.values()).filter(s -> s.module.equals(name) || s.module.endsWith("-" + name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("kill takes collector, planner or actuator, not " + name));
    }

    private static double number(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException("expected a number, not " + text);
        }
    }

    private static String names() {
        List<String> names = new ArrayList<>(Arrays.stream(Kind.values()).map(k -> k.name + (k == Kind.KILL ? "=SERVICE" : "")).toList());
        names.add(ALL);
        return String.join(", ", names);
    }

    @Override
    public String toString() {
        return kind.name + (argument == null ? "" : "=" + argument.toLowerCase(Locale.ROOT));
    }
}
