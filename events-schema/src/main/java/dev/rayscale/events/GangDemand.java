package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A pending placement group: its unplaced bundles, which Ray places all together or not at all.
 *
 * @param id the placement group id, hex
 * @param bundles the unplaced bundles, in the placement group's order
 * @param details the GCS's own description of the group (free text)
 * @param bundleLabelSelectors each bundle's label selectors, in the order of {@code bundles}: alternatives in order of
 *     preference, empty meaning any node; an empty list when no bundle selects labels
 */
public record GangDemand(String id, PlacementStrategy strategy, List<Resources> bundles, String details,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<List<LabelSelector>> bundleLabelSelectors) {

    public GangDemand {
        Fields.requiredText(id, "gangs.id");
        Fields.required(strategy, "gangs.strategy");
        bundles = Fields.list(bundles);
        if (bundles.isEmpty()) {
            throw new IllegalArgumentException("gangs.bundles must not be empty");
        }
        bundleLabelSelectors = Fields.list(bundleLabelSelectors).stream().map(Fields::list).toList();
        if (!bundleLabelSelectors.isEmpty() && bundleLabelSelectors.size() != bundles.size()) {
            throw new IllegalArgumentException("gangs.bundleLabelSelectors must name one list per bundle, " + bundles.size() + ", not "
                    + bundleLabelSelectors.size());
        }
        if (bundleLabelSelectors.stream().allMatch(List::isEmpty)) {
            bundleLabelSelectors = List.of();
        }
    }

    public GangDemand(String id, PlacementStrategy strategy, List<Resources> bundles, String details) {
        this(id, strategy, bundles, details, List.of());
    }

    /** The label selectors of bundle {@code index}: empty when it selects none. */
    public List<LabelSelector> selectorsOf(int index) {
        return bundleLabelSelectors.isEmpty() ? List.of() : bundleLabelSelectors.get(index);
    }
}
