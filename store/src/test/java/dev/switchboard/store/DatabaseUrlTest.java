package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DatabaseUrlTest {

    @Test
    void sqlitePathsAreFilesRelativeOrAbsolute() {
        DatabaseUrl relative = DatabaseUrl.parse("sqlite:data/switchboard.db");
        assertThat(relative.kind()).isEqualTo(Database.Kind.SQLITE);
        assertThat(relative.jdbcUrl()).isEqualTo("jdbc:sqlite:data/switchboard.db");
        assertThat(relative.sqliteFile()).contains(Path.of("data/switchboard.db"));

        assertThat(DatabaseUrl.parse("jdbc:sqlite:/var/lib/sb/x.db").sqliteFile()).contains(Path.of("/var/lib/sb/x.db"));
    }

    @Test
    void postgresCredentialsLeaveTheUrl() {
        DatabaseUrl url = DatabaseUrl.parse("postgresql://switch:p%40ss%3Aw0rd@db.internal:6543/gateway?sslmode=require");

        assertThat(url.kind()).isEqualTo(Database.Kind.POSTGRESQL);
        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:6543/gateway?sslmode=require");
        assertThat(url.user()).contains("switch");
        assertThat(url.password()).contains("p@ss:w0rd");
        assertThat(url.redacted()).isEqualTo("postgresql://switch:***@db.internal:6543/gateway?sslmode=require");
        assertThat(url.toString()).doesNotContain("w0rd");
    }

    @Test
    void postgresWithoutPasswordOrPort() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://postgres@127.0.0.1/test");
        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1/test");
        assertThat(url.user()).contains("postgres");
        assertThat(url.password()).isEmpty();
    }

    @Test
    void jdbcPostgresPassesThroughWithItsPasswordMaskedInLogs() {
        DatabaseUrl url = DatabaseUrl.parse("jdbc:postgresql://h:5432/db?user=u&password=topsecret&ssl=true");
        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://h:5432/db?user=u&password=topsecret&ssl=true");
        assertThat(url.redacted()).isEqualTo("jdbc:postgresql://h:5432/db?user=u&password=***&ssl=true");
    }

    @Test
    void anythingElseIsRefusedWithTheExpectedFormsAndNoPassword() {
        assertThatThrownBy(() -> DatabaseUrl.parse("mysql://root:hunter2@localhost/db"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected sqlite:<path> or postgresql://")
                .hasMessageContaining("mysql://root:***@localhost/db")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> DatabaseUrl.parse("postgresql://u:hunter2@host")).hasMessageContaining("database name")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> DatabaseUrl.parse("sqlite:")).hasMessageContaining("file path");
        assertThatThrownBy(() -> DatabaseUrl.parse("sqlite::memory:")).hasMessageContaining("in-memory");
    }
}
