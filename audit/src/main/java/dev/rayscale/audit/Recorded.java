package dev.rayscale.audit;

import dev.rayscale.events.Topics;
import org.apache.kafka.common.header.Headers;

/**
 * One record as it was on its topic, read from Kafka or from a line of an export file.
 *
 * @param line the export file's line number, or 0 when read from Kafka
 * @param timestamp the record's Kafka timestamp (epoch milliseconds): when it was written
 * @param value the record's value, null for a null value
 * @param problem why a line of a file is not a record at all (the other fields are then empty), or null
 */
public record Recorded(String topic, int partition, long offset, long line, long timestamp, String key, Headers headers, byte[] value,
        String problem) {

    public Recorded(String topic, int partition, long offset, long line, long timestamp, String key, Headers headers, byte[] value) {
        this(topic, partition, offset, line, timestamp, key, headers, value, null);
    }

    /** A line of a file that is not a record. */
    public static Recorded problem(long line, String problem) {
        return new Recorded(null, -1, -1, line, 0, null, null, null, problem);
    }

    /** Where the record is, for messages: {@code topic/partition@offset}, and the line of a file. */
    public String position() {
        if (topic == null) {
            return "line " + line;
        }
        String kafka = topic + "/" + partition + "@" + offset;
        return line > 0 ? "line " + line + " (" + kafka + ")" : kafka;
    }

    public Kind kind() {
        return Kind.of(topic);
    }

    /** What a topic holds. */
    public enum Kind {
        SNAPSHOT,
        DECISION,
        ACTUATION,
        DEAD_LETTER,
        OTHER;

        static Kind of(String topic) {
            if (Topics.SNAPSHOTS.equals(topic)) {
                return SNAPSHOT;
            }
            if (Topics.DECISIONS.equals(topic)) {
                return DECISION;
            }
            if (Topics.ACTUATIONS.equals(topic)) {
                return ACTUATION;
            }
            return topic != null && topic.startsWith("rayscale.") && topic.endsWith(".dlq") ? DEAD_LETTER : OTHER;
        }
    }
}
