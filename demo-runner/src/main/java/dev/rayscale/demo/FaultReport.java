package dev.rayscale.demo;

/**
 * What one injected fault did to a run.
 *
 * @param fault as given: {@code kill=actuator}
 * @param injectedAt simulated seconds into the workload when it struck; NaN if its moment never came
 * @param lastedSeconds wall-clock seconds from striking until the fault was over (the broker back, the service ready again, ...)
 * @param recoverySeconds wall-clock seconds from the fault being over until the loop had caught up again; NaN if it never did
 * @param detail what exactly was done
 */
public record FaultReport(String fault, double injectedAt, double lastedSeconds, double recoverySeconds, String detail) {

    public boolean struck() {
        return !Double.isNaN(injectedAt);
    }

    public boolean recovered() {
        return !Double.isNaN(recoverySeconds);
    }
}
