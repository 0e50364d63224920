package dev.switchboard.engine.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class PasswordsTest {

    private final Passwords passwords = new Passwords(1000);

    @Test
    void verifiesTheRightPasswordOnly() {
        PasswordHash hash = passwords.hash("correct horse battery");

        assertThat(hash.encoded()).startsWith("pbkdf2-sha256$1000$").doesNotContain("correct horse");
        assertThat(passwords.verify("correct horse battery", hash)).isTrue();
        assertThat(passwords.verify("correct horse batterY", hash)).isFalse();
        assertThat(hash.toString()).doesNotContain(hash.encoded());
    }

    @Test
    void saltsEveryHash() {
        assertThat(passwords.hash("same password")).isNotEqualTo(passwords.hash("same password"));
    }

    @Test
    void theIterationCountTravelsWithTheHash() {
        PasswordHash old = new Passwords(10).hash("an older password");
        assertThat(passwords.verify("an older password", old)).isTrue();
    }

    @Test
    void garbageHashesDoNotVerify() {
        assertThat(passwords.verify("x", new PasswordHash("pbkdf2-sha256$oops"))).isFalse();
        assertThat(passwords.verify("x", new PasswordHash("pbkdf2-sha256$10$!!$!!"))).isFalse();
    }

    @Test
    void refusesTooShortPasswordsNamingTheField() {
        assertThatThrownBy(() -> passwords.hash("short"))
                .isInstanceOfSatisfying(AccountException.class, e -> assertThat(e.field()).contains("password"))
                .hasMessageNotContaining("short");
    }

    @Test
    void newUserNeverPrintsItsPassword() {
        NewUser user = new NewUser("bob", Optional.empty(), Optional.of("hunter2hunter2"), "payg", 0);
        assertThat(user.toString()).doesNotContain("hunter2");
    }
}
