package dev.rayscale.events;

import java.util.List;
import java.util.Map;

/**
 * One Ray label constraint: the node's label {@code key} must be one of {@code values} (IN), or must
 * not be (NOT_IN; a node without the label satisfies NOT_IN).
 */
public record LabelConstraint(String key, LabelOperator operator, List<String> values) {

    public LabelConstraint {
        Fields.requiredText(key, "labelSelectors.constraints.key");
        Fields.required(operator, "labelSelectors.constraints.operator");
        values = Fields.list(values);
    }

    public boolean matches(Map<String, String> labels) {
        String value = labels.get(key);
        boolean listed = value != null && values.contains(value);
        return operator == LabelOperator.IN ? listed : !listed;
    }
}
