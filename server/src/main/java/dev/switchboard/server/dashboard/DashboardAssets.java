package dev.switchboard.server.dashboard;

import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The dashboard's static files, served by the gateway itself: {@code GET /} is the page shell, {@code GET
 * /assets/{path}} its scripts (plain ES modules, no build step) and style sheet. Every file is read from the
 * classpath once, at start, and served from memory.
 *
 * <p>The shell names every asset under {@code /assets/<hash of all assets>/}, and the scripts import each other by
 * relative paths that stay under it, so a browser may keep them for a
 * year ({@code immutable}) and still never runs a stale script after an upgrade; the shell itself is revalidated
 * on every load. A strict Content-Security-Policy allows only the gateway's own scripts, styles and API: nothing
 * inline, nothing from another origin.
 */
public final class DashboardAssets {
    /** Where the files live on the classpath. */
    static final String ROOT = "dev/switchboard/server/dashboard/";
    /** Every file served; the list keeps the jar's contents and the served set the same. */
    static final List<String> FILES = List.of(
            "index.html", "app.css", "app.js", "api.js", "ui.js", "format.js",
            "pages/login.js", "pages/overview.js", "pages/keys.js", "pages/usage.js", "pages/usage-data.js", "pages/models.js",
            "pages/defaults.js", "pages/playground.js", "pages/skills.js", "pages/skill-edit.js", "pages/catalog.js",
            "pages/account.js", "pages/admin-users.js", "pages/admin-usage.js", "pages/admin-providers.js",
            "pages/admin-catalog.js");
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

    private record Asset(byte[] body, String contentType) {
    }

    private final Map<String, Asset> assets = new TreeMap<>();
    private final byte[] shell;
    private final String version;
    private final String etag;

    private DashboardAssets(ClassLoader loader) {
        MessageDigest digest = sha256();
        for (String name : FILES) {
            if (name.equals("index.html")) {
                continue;
            }
            byte[] body = read(loader, name);
            digest.update(name.getBytes(StandardCharsets.UTF_8));
            digest.update(body);
            assets.put(name, new Asset(body, contentType(name)));
        }
        byte[] template = read(loader, "index.html");
        digest.update(template);
        this.version = HexFormat.of().formatHex(digest.digest()).substring(0, 16);
        this.shell = new String(template, StandardCharsets.UTF_8).replace("{{v}}", version)
                .getBytes(StandardCharsets.UTF_8);
        this.etag = "\"" + version + "\"";
    }

    /** The files of this build; fails at start (not at the first request) when one is missing from the jar. */
    public static DashboardAssets load() {
        return new DashboardAssets(DashboardAssets.class.getClassLoader());
    }

    /** {@code GET /}: the page shell. */
    public void shell(Exchange ex) {
        secure(ex);
        ex.header("cache-control", "no-cache");
        ex.header("etag", etag);
        if (ex.header("if-none-match").filter(etag::equals).isPresent()) {
            ex.respond(304, "text/html; charset=utf-8", new byte[0]);
            return;
        }
        ex.respond(200, "text/html; charset=utf-8", shell);
    }

    /**
     * {@code GET /assets/{version}/{path}}: one script or style sheet. Under this build's version it may be cached for
     * good; under another (a page loaded before an upgrade) the current file is served but revalidated. 404 for
     * anything else.
     */
    public void asset(Exchange ex) {
        String rest = ex.path().substring("/assets/".length());
        int slash = rest.indexOf('/');
        String requestedVersion = slash < 0 ? "" : rest.substring(0, slash);
        String name = slash < 0 ? rest : rest.substring(slash + 1);
        Asset a = Optional.ofNullable(assets.get(name)).orElseThrow(() -> GatewayError.notFound(
                "The dashboard has no file '" + rest + "'.").toException());
        secure(ex);
        ex.header("cache-control", requestedVersion.equals(version) ? "public, max-age=31536000, immutable" : "no-cache");
        ex.respond(200, a.contentType(), a.body());
    }

    private static void secure(Exchange ex) {
        ex.header("content-security-policy", CSP);
        ex.header("x-content-type-options", "nosniff");
        ex.header("x-frame-options", "DENY");
        ex.header("referrer-policy", "same-origin");
    }

    private static String contentType(String name) {
        if (name.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (name.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        throw new IllegalArgumentException("no content type known for " + name);
    }

    private static byte[] read(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(ROOT + name)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard file " + ROOT + name + " is missing from the build");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
