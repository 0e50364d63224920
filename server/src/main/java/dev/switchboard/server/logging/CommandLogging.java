package dev.switchboard.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * The CLI twins print their answer on stdout for people and scripts; the gateway's informational log
 * lines (database ready, key issued) would only be noise around it. Commands other than {@code serve} log
 * warnings and errors only, unless {@code SWITCHBOARD_LOG_LEVEL} asks for more.
 */
public final class CommandLogging {
    private CommandLogging() {
    }

    public static void quiet(Map<String, String> env) {
        String asked = env.getOrDefault("SWITCHBOARD_LOG_LEVEL", "");
        if (asked.isBlank() && LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(Level.WARN);
        }
    }
}
