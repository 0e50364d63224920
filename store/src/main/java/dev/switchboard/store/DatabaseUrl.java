package dev.switchboard.store;

import dev.switchboard.wire.Redaction;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code database:} setting of the config, understood: which engine, the JDBC URL, and the
 * credentials taken out of the URL so they are never logged with it.
 *
 * <p>Accepted: {@code sqlite:<path>}, {@code jdbc:sqlite:<path>},
 * {@code postgresql://[user[:password]@]host[:port]/database[?parameters]} (also {@code postgres://};
 * percent-encode special characters in the user and password) and {@code jdbc:postgresql://...}.
 */
record DatabaseUrl(Database.Kind kind, String jdbcUrl, Optional<String> user, Optional<String> password,
                   Optional<Path> sqliteFile, String redacted) {

    private static final String EXPECTED =
            "expected sqlite:<path> or postgresql://user:password@host:5432/database (or a jdbc: URL of either)";

    static DatabaseUrl parse(String raw) {
        String url = raw.strip();
        if (url.startsWith("jdbc:sqlite:")) {
            return sqlite(url.substring("jdbc:sqlite:".length()), raw);
        }
        if (url.startsWith("sqlite:")) {
            return sqlite(url.substring("sqlite:".length()), raw);
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return new DatabaseUrl(Database.Kind.POSTGRESQL, url, Optional.empty(), Optional.empty(), Optional.empty(),
                    Redaction.urlPasswords(url));
        }
        if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
            return postgres(url);
        }
        throw new IllegalArgumentException("database: " + EXPECTED + ", got \"" + Redaction.urlPasswords(url) + "\"");
    }

    private static DatabaseUrl sqlite(String path, String raw) {
        if (path.isBlank()) {
            throw new IllegalArgumentException("database: expected a file path after sqlite:, e.g. sqlite:data/switchboard.db");
        }
        // Each pooled connection would get its own private in-memory database.
        if (path.startsWith(":memory:") || path.contains("mode=memory")) {
            throw new IllegalArgumentException("database: expected a file path after sqlite:, in-memory databases are not supported");
        }
        String file = path.startsWith("file:") ? path.substring("file:".length()) : path;
        int query = file.indexOf('?');
        Path p = Path.of(query >= 0 ? file.substring(0, query) : file);
        return new DatabaseUrl(Database.Kind.SQLITE, "jdbc:sqlite:" + path, Optional.empty(), Optional.empty(),
                Optional.of(p), "sqlite:" + path);
    }

    private static DatabaseUrl postgres(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("database: " + EXPECTED
                    + "; percent-encode special characters in the user and password, got \"" + Redaction.urlPasswords(url) + "\"");
        }
        String database = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (uri.getHost() == null || database.length() < 2) {
            throw new IllegalArgumentException("database: " + EXPECTED + ", got \"" + Redaction.urlPasswords(url)
                    + "\" (a host and a database name are required)");
        }
        Optional<String> user = Optional.empty();
        Optional<String> password = Optional.empty();
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            user = Optional.of(decode(colon >= 0 ? userInfo.substring(0, colon) : userInfo)).filter(u -> !u.isEmpty());
            password = colon >= 0 ? Optional.of(decode(userInfo.substring(colon + 1))) : Optional.empty();
        }
        String jdbc = "jdbc:postgresql://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "") + database
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return new DatabaseUrl(Database.Kind.POSTGRESQL, jdbc, user, password, Optional.empty(), Redaction.urlPasswords(url));
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "DatabaseUrl[" + redacted + "]";
    }
}
