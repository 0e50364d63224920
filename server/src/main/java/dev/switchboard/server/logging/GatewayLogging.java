package dev.switchboard.server.logging;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.hook.DefaultShutdownHook;
import ch.qos.logback.core.joran.spi.ConsoleTarget;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The gateway's logging, set up in code (logback finds it through {@code META-INF/services}): one flat JSON object
 * per line ({@link JsonLineEncoder}) on stderr, since stdout carries the start-up banner and the CLI twins' JSON
 * answers; request threads hand lines to a queue and one thread writes them (no lock or I/O on the request path),
 * and when the queue is full they wait rather than lose lines; the queue is drained at exit. The root level is
 * {@code SWITCHBOARD_LOG_LEVEL} (default INFO); Helidon, Flyway and HikariCP log warnings and errors only. Keys
 * never reach the log, only their prefixes.
 *
 * <p>In code rather than a {@code logback.xml} because reading the XML was a fifth of the start-up's own work.
 * A configuration asked for explicitly still wins: {@code -Dlogback.configurationFile}, or a {@code logback-test.xml}
 * on the class path (tests).
 */
public final class GatewayLogging extends ContextAwareBase implements Configurator {
    /** The lines the queue holds before request threads wait for the writer. */
    static final int QUEUE_LINES = 8192;
    /** The root level: a system property of this name, else the environment variable. */
    static final String LEVEL = "SWITCHBOARD_LOG_LEVEL";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || GatewayLogging.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        context.getStatusManager().add(new NopStatusListener());

        JsonLineEncoder encoder = new JsonLineEncoder();
        encoder.setContext(context);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("LOG");
        console.setTarget(ConsoleTarget.SystemErr.getName());
        console.setEncoder(encoder);
        console.start();

        AsyncAppender async = new AsyncAppender();
        async.setContext(context);
        async.setName("ASYNC");
        async.setQueueSize(QUEUE_LINES);
        async.setDiscardingThreshold(0);
        async.setIncludeCallerData(false);
        async.addAppender(console);
        async.start();

        for (String quiet : new String[] {"io.helidon", "org.flywaydb", "com.zaxxer.hikari"}) {
            context.getLogger(quiet).setLevel(Level.WARN);
        }
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(Optional.ofNullable(System.getProperty(LEVEL))
                .or(() -> Optional.ofNullable(System.getenv(LEVEL))).orElse("INFO"), Level.INFO));
        root.addAppender(async);

        // stops the context at exit, so that lines still queued are written, not lost
        DefaultShutdownHook hook = new DefaultShutdownHook();
        hook.setContext(context);
        Runtime.getRuntime().addShutdownHook(new Thread(hook, "logback-shutdown"));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
