package dev.rayscale.events;

/**
 * Capacity on its way for one group, which the actuator reports to the GCS so that {@code ray status}
 * shows it.
 *
 * @param requested Ray nodes this decision asks for beyond what exists
 * @param pending Ray nodes whose pods exist but have not registered yet
 */
public record PendingLaunch(String group, int requested, int pending) {

    public PendingLaunch {
        Fields.requiredText(group, "launches.group");
        Fields.notNegative(requested, "launches.requested");
        Fields.notNegative(pending, "launches.pending");
    }
}
