package dev.switchboard.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void providerKeysAndBearerTokensAreRedacted() {
        assertThat(Redaction.secrets("Incorrect API key provided: sk-abc123456789. Bearer xyz"))
                .isEqualTo("Incorrect API key provided: [redacted]. [redacted]");
        assertThat(Redaction.secrets("key AIza" + "A".repeat(30) + " refused")).isEqualTo("key [redacted] refused");
        assertThat(Redaction.secrets("no credentials here")).isEqualTo("no credentials here");
    }

    @Test
    void passwordsInUrlsAreMasked() {
        assertThat(Redaction.urlPasswords("postgresql://user:pw@host:5432/db")).isEqualTo("postgresql://user:***@host:5432/db");
        assertThat(Redaction.urlPasswords("redis://:pw@cache:6379")).isEqualTo("redis://:***@cache:6379");
        assertThat(Redaction.urlPasswords("redis://token@cache:6379/0?x=a@b")).isEqualTo("redis://***@cache:6379/0?x=a@b");
        assertThat(Redaction.urlPasswords("jdbc:postgresql://h:5432/db?user=u&password=x&ssl=true"))
                .isEqualTo("jdbc:postgresql://h:5432/db?user=u&password=***&ssl=true");
        assertThat(Redaction.urlPasswords("rediss://token@cache:6380")).isEqualTo("rediss://***@cache:6380");
        assertThat(Redaction.urlPasswords("postgresql://postgres@127.0.0.1:1/none")).isEqualTo("postgresql://postgres@127.0.0.1:1/none");
        assertThat(Redaction.urlPasswords("postgresql://host/db")).isEqualTo("postgresql://host/db");
        assertThat(Redaction.urlPasswords("sqlite:data/switchboard.db")).isEqualTo("sqlite:data/switchboard.db");
    }
}
