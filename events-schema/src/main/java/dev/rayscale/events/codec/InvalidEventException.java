package dev.rayscale.events.codec;

/**
 * A record that is not a valid Rayscale event. Names the field (a JSON path such as
 * {@code $.workerGroups[0].maxReplicas}) and the problem, so that a dead-letter entry says exactly
 * what is wrong.
 */
public class InvalidEventException extends RuntimeException {

    private final String eventType;
    private final String field;
    private final String problem;

    public InvalidEventException(String eventType, String field, String problem) {
        this(eventType, field, problem, null);
    }

    public InvalidEventException(String eventType, String field, String problem, Throwable cause) {
        super("invalid " + eventType + ": " + field + ": " + problem, cause);
        this.eventType = eventType;
        this.field = field;
        this.problem = problem;
    }

    /** The event type that was expected, e.g. {@code ClusterSnapshot}. */
    public String eventType() {
        return eventType;
    }

    /** JSON path of the offending field; {@code $} for the document as a whole. */
    public String field() {
        return field;
    }

    public String problem() {
        return problem;
    }
}
