package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * One reason of a decision, as data.
 *
 * @param code what it is about
 * @param group the worker group it is about, absent when it is about the cluster
 * @param detail the particulars, for people
 */
public record Reason(ReasonCode code, String group, String detail) {

    public Reason {
        Fields.required(code, "codedReasons.code");
        Fields.requiredText(detail, "codedReasons.detail");
    }

    public static Reason ofCluster(ReasonCode code, String detail) {
        return new Reason(code, null, detail);
    }

    /** The reason as people read it: the one place a reason's text is made. */
    @JsonIgnore
    public String text() {
        return group == null ? detail : group + ": " + detail;
    }

    public static List<String> texts(List<Reason> reasons) {
        return reasons.stream().map(Reason::text).toList();
    }
}
