package dev.rayscale.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** What this build is: the planner version its decisions carry (the project's version, as the scaling-planner service writes it). */
public final class BuildInfo {

    private static final String PLANNER_VERSION = load().getProperty("planner.version");

    private BuildInfo() {
    }

    public static String plannerVersion() {
        return PLANNER_VERSION;
    }

    private static Properties load() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            properties.load(in);
        } catch (IOException | NullPointerException e) {
            throw new UncheckedIOException(new IOException("build.properties is missing from the audit jar", e));
        }
        return properties;
    }
}
