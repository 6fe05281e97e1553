package dev.rayscale.events;

import java.util.List;

/**
 * A pending placement group: its unplaced bundles, which Ray places all together or not at all.
 *
 * @param id the placement group id, hex
 * @param bundles the unplaced bundles, in the placement group's order
 * @param details the GCS's own description of the group (free text)
 */
public record GangDemand(String id, PlacementStrategy strategy, List<Resources> bundles, String details) {

    public GangDemand {
        Fields.requiredText(id, "gangs.id");
        Fields.required(strategy, "gangs.strategy");
        bundles = Fields.list(bundles);
        if (bundles.isEmpty()) {
            throw new IllegalArgumentException("gangs.bundles must not be empty");
        }
    }
}
