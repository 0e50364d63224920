package dev.switchboard.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/** The gateway's logging as {@link GatewayLogging} sets it up on a fresh logback context. */
class GatewayLoggingTest {
    @Test
    void jsonLinesOnStderrBehindAQueueThatNeverDropsWithQuietLibraries() {
        LoggerContext context = new LoggerContext();
        GatewayLogging logging = new GatewayLogging();
        logging.setContext(context);

        assertThat(logging.configure(context)).isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);

        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.toLevel(System.getenv(GatewayLogging.LEVEL), Level.INFO));
        AsyncAppender async = (AsyncAppender) root.getAppender("ASYNC");
        assertThat(async.isStarted()).isTrue();
        assertThat(async.getQueueSize()).isEqualTo(GatewayLogging.QUEUE_LINES);
        assertThat(async.getDiscardingThreshold()).as("request threads wait, lines are never dropped").isZero();
        assertThat(async.isIncludeCallerData()).isFalse();
        @SuppressWarnings("unchecked")
        ConsoleAppender<ILoggingEvent> console = (ConsoleAppender<ILoggingEvent>) async.getAppender("LOG");
        assertThat(console.isStarted()).isTrue();
        assertThat(console.getTarget()).isEqualTo("System.err");
        assertThat(console.getEncoder()).isInstanceOf(JsonLineEncoder.class);
        for (String quiet : new String[] {"io.helidon", "org.flywaydb", "com.zaxxer.hikari"}) {
            assertThat(context.getLogger(quiet).getLevel()).as(quiet).isEqualTo(Level.WARN);
        }
        context.stop();
    }

    @Test
    void aConfigurationFileAskedForWins() {
        String before = System.getProperty("logback.configurationFile");
        System.setProperty("logback.configurationFile", "/nonexistent/logback.xml");
        try {
            LoggerContext context = new LoggerContext();
            GatewayLogging logging = new GatewayLogging();
            logging.setContext(context);
            assertThat(logging.configure(context)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
            assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).isFalse();
        } finally {
            if (before == null) {
                System.clearProperty("logback.configurationFile");
            } else {
                System.setProperty("logback.configurationFile", before);
            }
        }
    }
}
