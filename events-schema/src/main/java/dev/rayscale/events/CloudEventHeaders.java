package dev.rayscale.events;

import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * CloudEvents 1.0 Kafka protocol binding, binary mode: the event's attributes travel as {@code ce_*}
 * record headers and the record value is the event's JSON. Generic tooling can route and trace
 * Rayscale events by these headers without reading the payload.
 */
public final class CloudEventHeaders {

    public static final String SPEC_VERSION = "ce_specversion";
    public static final String ID = "ce_id";
    public static final String TYPE = "ce_type";
    public static final String SOURCE = "ce_source";
    public static final String TIME = "ce_time";
    public static final String SUBJECT = "ce_subject";
    public static final String CONTENT_TYPE = "content-type";

    public static final String CLOUDEVENTS_VERSION = "1.0";
    public static final String JSON = "application/json";

    private CloudEventHeaders() {
    }

    /**
     * Adds the headers for {@code event}, unless the record already carries a {@code ce_id} (a
     * producer that writes its own CloudEvents attributes keeps them).
     *
     * @param source the CloudEvents source, a URI reference naming the producer
     */
    public static void addIfAbsent(Headers headers, EventType<?> type, RayscaleEvent event, String source) {
        if (headers.lastHeader(ID) != null) {
            return;
        }
        put(headers, SPEC_VERSION, CLOUDEVENTS_VERSION);
        put(headers, ID, event.id());
        put(headers, TYPE, type.ceType());
        put(headers, SOURCE, source);
        put(headers, TIME, DateTimeFormatter.ISO_INSTANT.format(event.time()));
        put(headers, SUBJECT, event.cluster().id());
        put(headers, CONTENT_TYPE, JSON);
    }

    /** The value of the last header named {@code key}, or null. */
    public static String read(Headers headers, String key) {
        Header header = headers == null ? null : headers.lastHeader(key);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static void put(Headers headers, String key, String value) {
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
