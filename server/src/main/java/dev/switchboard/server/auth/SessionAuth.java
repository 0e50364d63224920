package dev.switchboard.server.auth;

import dev.switchboard.engine.extend.Viewer;
import dev.switchboard.engine.session.Sessions;
import dev.switchboard.engine.session.Sessions.SignedIn;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.config.DashboardConfig;
import dev.switchboard.server.http.Exchange;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * How the catalog's write endpoints and the {@code /auth} routes know the signed-in user: only from the
 * {@value #COOKIE} cookie, never from an API key. A state-changing request ({@code POST}, {@code PUT},
 * {@code PATCH}, {@code DELETE}) that uses the cookie must also carry the session's CSRF token as
 * {@code x-csrf-token}: without it, or with a wrong one, it is a 403 {@code csrf_failed}. No session is a 401
 * {@code auth_required}.
 */
public final class SessionAuth {
    public static final String COOKIE = "sb_session";
    public static final String CSRF_HEADER = "x-csrf-token";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final Sessions sessions;
    private final DashboardConfig config;
    private final ClientAddress address;

    public SessionAuth(Sessions sessions, DashboardConfig config) {
        this.sessions = sessions;
        this.config = config;
        this.address = new ClientAddress(config.trustForwardedFor());
    }

    public Sessions sessions() {
        return sessions;
    }

    /** The signed-in user, when the request carries a live session cookie (public reads use it for {@code liked}). */
    public Optional<SignedIn> optional(Exchange ex) {
        return Cookies.value(ex, COOKIE).flatMap(sessions::authenticate);
    }

    /** The signed-in user; 401 without a live session, 403 when a state-changing request lacks the CSRF token. */
    public SignedIn require(Exchange ex) {
        SignedIn who = optional(ex).orElseThrow(() -> {
            boolean apiKey = ex.header("authorization").filter(h -> h.regionMatches(true, 0, "Bearer ", 0, 7)).isPresent();
            return GatewayError.unauthorized(apiKey
                    ? "API keys do not open dashboard sessions; sign in with POST /auth/login and send the " + COOKIE + " cookie."
                    : "Sign in first: POST /auth/login, then send the " + COOKIE + " cookie it sets.").toException();
        });
        if (!SAFE_METHODS.contains(ex.method().toUpperCase(Locale.ROOT))) {
            checkToken(ex, who);
        }
        return who;
    }

    /**
     * The signed-in user of a request that carries the session's CSRF token whatever its method: how the dashboard
     * calls routes made for API keys (the token is the proof that the dashboard's own script sent it).
     */
    public SignedIn requireWithToken(Exchange ex) {
        SignedIn who = require(ex);
        checkToken(ex, who);
        return who;
    }

    private static void checkToken(Exchange ex, SignedIn who) {
        String sent = ex.header(CSRF_HEADER).orElse("");
        if (!MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
                who.session().csrfToken().getBytes(StandardCharsets.UTF_8))) {
            throw GatewayError.forbidden("csrf_failed", sent.isEmpty()
                    ? "This request needs the session's CSRF token in the " + CSRF_HEADER
                            + " header (GET /auth/me answers it)."
                    : "The " + CSRF_HEADER + " header does not match this session's token (GET /auth/me answers it).")
                    .toException();
        }
    }

    /** The catalog's view of the signed-in user. */
    public static Viewer viewer(SignedIn who) {
        return new Viewer(who.user().id(), who.user().name());
    }

    /** The client's address, for throttling. */
    String clientAddress(Exchange ex) {
        return address.of(ex);
    }

    /** The {@code Set-Cookie} value that hands out a session. */
    String setCookie(Exchange ex, String token, Duration maxAge) {
        return COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Lax; Max-Age=" + Math.max(0, maxAge.toSeconds())
                + (secure(ex) ? "; Secure" : "");
    }

    /** The {@code Set-Cookie} value that removes the session cookie from the browser. */
    String clearCookie(Exchange ex) {
        return COOKIE + "=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0" + (secure(ex) ? "; Secure" : "");
    }

    private boolean secure(Exchange ex) {
        return switch (config.secureCookie()) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> ex.header("x-forwarded-proto").map(p -> p.strip().toLowerCase(Locale.ROOT).startsWith("https"))
                    .orElse(false);
        };
    }

    /** The session cookie value a request carries, live or not. */
    Optional<String> presentedToken(Exchange ex) {
        return Cookies.value(ex, COOKIE);
    }
}
