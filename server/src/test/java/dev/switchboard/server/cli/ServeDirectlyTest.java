package dev.switchboard.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.server.StartupException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's own command lines skip picocli ({@link Cli#serveDirectly}); every other one is left to it, and a
 * start that fails ends exactly as it does through picocli.
 */
class ServeDirectlyTest {
    @TempDir
    Path dir;

    private static OptionalInt direct(StringWriter err, String... args) {
        return Cli.serveDirectly(args, Map.of(), new PrintWriter(err, true));
    }

    @Test
    void commandLinesThatAreNotOnlyServingAreLeftToPicocli() {
        List<String[]> others = List.of(new String[] {"--help"}, new String[] {"-V"}, new String[] {"serve", "--help"},
                new String[] {"users", "list"}, new String[] {"keys", "create", "u"}, new String[] {"--config"},
                new String[] {"--config", "--help"}, new String[] {"--config="}, new String[] {"--config", "a", "--config", "b"},
                new String[] {"--config=a", "--config=b"}, new String[] {"serve", "serve"}, new String[] {"--confi", "a"},
                new String[] {"serve", "extra"});
        for (String[] args : others) {
            StringWriter err = new StringWriter();
            assertThat(direct(err, args)).as(String.join(" ", args)).isEmpty();
            assertThat(err.toString()).isEmpty();
        }
    }

    @Test
    void aConfigErrorEndsAsThroughPicocliInEveryServingForm() throws IOException {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "listen: [not an address\n");
        CliRun viaPicocli = CliRun.of(Map.of(), "--config", bad.toString());
        assertThat(viaPicocli.exitCode()).isEqualTo(StartupException.CONFIG);

        for (String[] args : List.of(new String[] {"--config", bad.toString()}, new String[] {"--config=" + bad},
                new String[] {"serve", "--config", bad.toString()}, new String[] {"--config", bad.toString(), "serve"})) {
            StringWriter err = new StringWriter();
            assertThat(direct(err, args)).as(String.join(" ", args)).hasValue(StartupException.CONFIG);
            assertThat(err.toString()).isEqualTo(viaPicocli.err());
        }
    }

    @Test
    void aPortInUseEndsAsThroughPicocli() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.setReuseAddress(true);
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Path config = dir.resolve("switchboard.yaml");
            Files.writeString(config, """
                    listen: 127.0.0.1:%d
                    database: sqlite:%s
                    providers:
                      sim: {type: simulator}
                    models:
                      m1: {context_length: 1000, max_output_tokens: 100, pricing: {input: 0, output: 0}, route: [{provider: sim}]}
                    """.formatted(taken.getLocalPort(), dir.resolve("sb.db")));
            CliRun viaPicocli = CliRun.of(Map.of(), "--config", config.toString());

            StringWriter err = new StringWriter();
            assertThat(direct(err, "serve", "--config", config.toString())).hasValue(StartupException.LISTEN);
            assertThat(viaPicocli.exitCode()).isEqualTo(StartupException.LISTEN);
            assertThat(err.toString()).isEqualTo(viaPicocli.err()).contains("in use");
        }
    }
}
