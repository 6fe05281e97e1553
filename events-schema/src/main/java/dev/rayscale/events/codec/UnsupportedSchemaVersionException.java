package dev.rayscale.events.codec;

/**
 * A well-formed record of a schema version this reader does not know: written by a newer (or much
 * older) producer. Kept distinct from other invalid input so that consumers can route it apart
 * (for example to a dead-letter topic to be replayed after an upgrade).
 */
public class UnsupportedSchemaVersionException extends InvalidEventException {

    private final long version;
    private final int supportedVersion;

    /**
     * @param field where the version was read: {@code $.schemaVersion}, or the {@code ce_type} header
     */
    public UnsupportedSchemaVersionException(String eventType, String field, long version, int supportedVersion) {
        super(eventType, field,
                "schema version " + version + " is not supported; this reader knows version " + supportedVersion);
        this.version = version;
        this.supportedVersion = supportedVersion;
    }

    public long version() {
        return version;
    }

    public int supportedVersion() {
        return supportedVersion;
    }
}
