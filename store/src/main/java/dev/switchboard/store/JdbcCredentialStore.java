package dev.switchboard.store;

import dev.switchboard.engine.account.PasswordHash;
import dev.switchboard.engine.session.CredentialStore;
import dev.switchboard.engine.session.DashboardRole;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/** {@link CredentialStore} over the {@code users} table (the {@code role} column comes from V10). */
public final class JdbcCredentialStore implements CredentialStore {
    private final Sql sql;

    public JdbcCredentialStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public Optional<String> userIdForLogin(String login) {
        return sql.read("find login", c -> {
            for (String[] q : new String[][] {{"SELECT id FROM users WHERE name = ?", login},
                    {"SELECT id FROM users WHERE email = ?", login.toLowerCase(Locale.ROOT)}}) {
                try (PreparedStatement p = c.prepareStatement(q[0])) {
                    p.setString(1, q[1]);
                    try (ResultSet rs = p.executeQuery()) {
                        if (rs.next()) {
                            return Optional.of(rs.getString(1));
                        }
                    }
                }
            }
            return Optional.<String>empty();
        });
    }

    @Override
    public DashboardRole role(String userId) {
        return sql.read("read role", c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT role FROM users WHERE id = ?")) {
                p.setString(1, userId);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? DashboardRole.parse(rs.getString(1)).orElse(DashboardRole.USER) : DashboardRole.USER;
                }
            }
        });
    }

    @Override
    public boolean setRole(String userId, DashboardRole role) {
        return update("UPDATE users SET role = ? WHERE id = ?", role.wire(), userId);
    }

    @Override
    public boolean setPassword(String userId, PasswordHash hash) {
        return update("UPDATE users SET password_hash = ? WHERE id = ?", hash.encoded(), userId);
    }

    private boolean update(String statement, String value, String userId) {
        return sql.read("update user", c -> {
            return Sql.update(c, statement, value, userId) > 0;
        });
    }
}
