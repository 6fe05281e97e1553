package dev.rayscale.sim;

/**
 * Which way a Ray client process goes for {@code ray status} and {@code request_resources} ({@code is_autoscaler_v2()},
 * fact D47): the environment variable {@code RAY_enable_autoscaler_v2} decides if set; otherwise the GCS KV switch,
 * read once and kept for the process's life.
 */
public enum ClientPath {
    /** A process started now, without the variable: it reads the KV switch now (a {@code ray status} command, a new driver). */
    FRESH,
    /** A process that read the switch while it did not say "1" (a dashboard or driver started before): v1 for good. */
    V1,
    /** A process with {@code RAY_enable_autoscaler_v2=1} in its environment. */
    V2
}
