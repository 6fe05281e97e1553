package dev.rayscale.events.codec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;

/** The one Jackson configuration for Rayscale events, so that every producer writes the same JSON. */
public final class EventJson {

    // Buffers are recycled per thread: a pool shared by threads that parse at once (the audit reads on every core) is contended.
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder().recyclerPool(JsonRecyclerPools.threadLocalPool()).build())
            .addModule(new JavaTimeModule())
            // Registered after the Java time module, so it is the one asked for instants.
            .addModule(new SimpleModule("rayscale-instants")
                    .addDeserializer(Instant.class, new IsoInstant.Deserializer()))
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            // Additive schema changes keep the version, so a reader ignores fields it does not know.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            // Resource amounts are decimals; reading them through double would lose exactness.
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            // Amounts read as people and most JSON tools expect them: 100, not 1E+2.
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private EventJson() {
    }

    /**
     * What a failed read of JSON says in its own words: the innermost cause's message, without the location Jackson
     * appends (a record constructor's check, wrapped by Jackson, says what was wrong with the value).
     */
    public static String problem(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root instanceof JsonProcessingException json ? json.getOriginalMessage() : root.getMessage();
    }

    /** A shared, thread-safe mapper. Do not reconfigure it; {@code copy()} it instead. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
