package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.read.ListAppender;
import dev.switchboard.engine.account.AdminKeys;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.ApiKeys;
import dev.switchboard.engine.account.Authentication.Authenticated;
import dev.switchboard.engine.account.DemoBootstrap;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.engine.account.KeyHash;
import dev.switchboard.engine.account.Passwords;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.account.Users;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * docs/contracts.md §5 end to end on the embedded default: API keys, admin keys and passwords reach
 * neither the database files nor the logs, while their hashes do reach the database.
 */
class SecretsNeverLeakTest {

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private Level rootLevel;
    private Appender<ILoggingEvent> console;

    @BeforeEach
    void captureEveryLogLine() {
        rootLevel = root.getLevel();
        console = root.getAppender("CONSOLE"); // muted: TRACE from every library would flood the build
        root.detachAppender(console);
        root.setLevel(Level.ALL);
        logs.start();
        root.addAppender(logs);
    }

    @AfterEach
    void restoreLogging() {
        root.detachAppender(logs);
        root.setLevel(rootLevel);
        root.addAppender(console);
    }

    @Test
    void secretsAreStoredOnlyAsHashesAndNeverLogged() throws IOException {
        List<String> secrets = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        String password = "a-memorable-password-123";
        try (Database db = Database.open("sqlite:" + dir.resolve("switchboard.db"))) {
            JdbcAccountStore store = new JdbcAccountStore(db);
            Clock clock = Clock.systemUTC();
            Users users = new Users(store, new Passwords(1), clock);
            ApiKeys keys = new ApiKeys(store, clock);
            AdminService admin = new AdminService(store, users, keys, clock);

            IssuedKey demo = new DemoBootstrap(store, users, keys).run(DemoBootstrap.DEFAULT_BALANCE_NANOS).orElseThrow();
            String adminKey = new AdminKeys(store, Optional.empty(), clock).ensureAdminKey().orElseThrow();
            User bob = admin.createUser(new AdminService.CreateUser(Optional.of("bob"), Optional.empty(),
                    Optional.of(password), Optional.empty(), Optional.of("1")));
            IssuedKey bobs = admin.createKey(bob.id(), AdminService.CreateKey.defaults());
            assertThat(keys.authenticate(bobs.secret())).isInstanceOf(Authenticated.class);
            admin.revokeKey(bobs.key().id());
            keys.authenticate(bobs.secret());
            root.info("issued {}", bobs); // a careless log of the whole record

            secrets.addAll(List.of(demo.secret(), bobs.secret(), adminKey, password));
            hashes.addAll(List.of(KeyHash.of(demo.secret()).hex(), KeyHash.of(bobs.secret()).hex(), KeyHash.of(adminKey).hex()));
        }

        String files = allFilesAsText(dir);
        assertThat(hashes).allSatisfy(h -> assertThat(files).contains(h)); // the scan does see the data
        String logText = String.join("\n", logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
        assertThat(logText).contains("sk-sb-"); // prefixes are logged, so the capture works
        for (String secret : secrets) {
            assertThat(files).doesNotContain(secret);
            assertThat(logText).doesNotContain(secret);
        }
    }

    private static String allFilesAsText(Path dir) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                // ISO-8859-1 maps every byte to one char, so ASCII secrets are found wherever they sit.
                all.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).append('\n');
            }
        }
        return all.toString();
    }
}
