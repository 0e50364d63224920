package dev.switchboard.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.Usd;
import dev.switchboard.engine.extend.JsonInput;
import dev.switchboard.engine.session.Sessions;
import dev.switchboard.engine.session.Sessions.Issued;
import dev.switchboard.engine.session.Sessions.Outcome;
import dev.switchboard.engine.session.Sessions.SignedIn;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.server.admin.AdminApi;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The dashboard's sign-in routes:
 * <ul>
 *   <li>{@code POST /auth/login} {@code {login, password}} (login: user name or e-mail) answers
 *       {@code {user, csrf_token, session}} and sets the session cookie; any wrong login or password is the same
 *       401; too many failures are a 429 with {@code Retry-After}.
 *   <li>{@code GET /auth/me} answers the same for the current session, 401 without one.
 *   <li>{@code POST /auth/logout} (CSRF token required when signed in) ends the session everywhere at once and
 *       clears the cookie: 204. {@code ?everywhere=true} ends every session of the user.
 *   <li>{@code POST /auth/signup} {@code {name, email?, password}}, only with {@code dashboard.signup: open}
 *       (else 404): creates the account and signs it in (201).
 *   <li>{@code POST /auth/password} {@code {current_password, new_password}}: changes the signed-in user's password,
 *       ends every session of the user and opens a new one for the caller.
 * </ul>
 * API keys are never looked at here: a key cannot open a session.
 */
public final class AuthApi {
    private static final int MAX_BODY = 16 * 1024;

    private final SessionAuth auth;
    private final Sessions sessions;

    public AuthApi(SessionAuth auth) {
        this.auth = auth;
        this.sessions = auth.sessions();
    }

    public void login(Exchange ex) {
        JsonInput in = body(ex);
        in.allowOnly(Set.of("login", "password"), Set.of());
        String login = in.requiredText("login", 254);
        String password = in.text("password", 1024, false).filter(p -> !p.isEmpty())
                .orElseThrow(() -> GatewayError.invalid("password", "password: required").toException());
        Outcome outcome = sessions.login(login, password, auth.clientAddress(ex), auth.presentedToken(ex));
        switch (outcome) {
            case Outcome.Success s -> signedIn(ex, 200, s.issued());
            case Outcome.Refused r -> throw new GatewayError(401, "invalid_request_error", "Wrong login or password.",
                    Optional.empty(), false).toException();
            case Outcome.Throttled t -> throw throttled(t.retryAfter());
        }
    }

    public void me(Exchange ex) {
        SignedIn who = auth.require(ex);
        ex.header("cache-control", "no-store");
        ex.respondJson(200, answer(who));
    }

    public void logout(Exchange ex) {
        Optional<String> token = auth.presentedToken(ex);
        if (token.isPresent() && auth.optional(ex).isPresent()) {
            SignedIn who = auth.require(ex); // checks the CSRF token
            if (ex.query("everywhere").filter("true"::equals).isPresent()) {
                sessions.logoutEverywhere(who.user().id());
            } else {
                sessions.logout(token.get());
            }
        }
        ex.header("set-cookie", auth.clearCookie(ex));
        ex.header("cache-control", "no-store");
        ex.respond(204, "application/json", new byte[0]);
    }

    public void signup(Exchange ex) {
        if (!sessions.policy().openSignup()) {
            throw GatewayError.notFound("Sign-up is not open on this gateway; ask its operator for an account.").toException();
        }
        JsonInput in = body(ex);
        in.allowOnly(Set.of("name", "email", "password"), Set.of());
        String name = in.requiredText("name", 200);
        Optional<String> email = in.text("email", 254, true).filter(e -> !e.isEmpty());
        String password = in.text("password", 2048, false).orElseThrow(() -> GatewayError.invalid("password", "password: required")
                .toException());
        Outcome outcome = AdminApi.call(() -> sessions.signup(name, email, password, auth.clientAddress(ex)));
        switch (outcome) {
            case Outcome.Success s -> signedIn(ex, 201, s.issued());
            case Outcome.Refused r -> throw new IllegalStateException("sign-up is never refused without a reason");
            case Outcome.Throttled t -> throw throttled(t.retryAfter());
        }
    }

    public void changePassword(Exchange ex) {
        SignedIn who = auth.require(ex);
        JsonInput in = body(ex);
        in.allowOnly(Set.of("current_password", "new_password"), Set.of());
        String current = in.text("current_password", 1024, false).orElseThrow(() ->
                GatewayError.invalid("current_password", "current_password: required").toException());
        String next = in.text("new_password", 2048, false).orElseThrow(() ->
                GatewayError.invalid("new_password", "new_password: required").toException());
        Optional<Issued> issued = AdminApi.call(() -> sessions.changePassword(who, current, next, auth.clientAddress(ex)));
        signedIn(ex, 200, issued.orElseThrow(() -> GatewayError.forbidden("forbidden", "The current password is wrong.")
                .toException()));
    }

    private void signedIn(Exchange ex, int status, Issued issued) {
        Duration left = Duration.between(issued.signedIn().session().createdAt(), issued.signedIn().session().expiresAt());
        ex.header("set-cookie", auth.setCookie(ex, issued.token(), left));
        ex.header("cache-control", "no-store");
        ex.respondJson(status, answer(issued.signedIn()));
    }

    /** {@code {user, csrf_token, session}}: what a dashboard needs to know about the signed-in user. */
    static ObjectNode answer(SignedIn who) {
        ObjectNode o = Json.object();
        ObjectNode u = o.putObject("user");
        u.put("id", who.user().id());
        u.put("name", who.user().name());
        who.user().email().ifPresent(e -> u.put("email", e));
        u.put("role", who.role().wire());
        u.put("plan", who.user().plan());
        u.put("balance_usd", Usd.format(who.user().balanceNanos()));
        u.put("created_at", who.user().createdAt().toString());
        o.put("csrf_token", who.session().csrfToken());
        ObjectNode s = o.putObject("session");
        s.put("id", who.session().id());
        s.put("created_at", who.session().createdAt().toString());
        s.put("expires_at", who.session().expiresAt().toString());
        return o;
    }

    private static JsonInput body(Exchange ex) {
        byte[] raw = ex.body();
        if (raw.length > MAX_BODY) {
            throw new GatewayError(413, "request_too_large", "The request body exceeds " + MAX_BODY + " bytes.", Optional.empty(),
                    false).toException();
        }
        JsonNode node = raw.length == 0 ? Json.object() : Json.parse(raw);
        return JsonInput.of(node, "");
    }

    private static GatewayException throttled(Duration retryAfter) {
        long seconds = Math.max(1, retryAfter.toSeconds() + (retryAfter.toMillisPart() > 0 ? 1 : 0));
        return new GatewayException(GatewayError.rateLimited("Too many failed attempts; try again in " + seconds + " seconds."),
                Optional.of(Duration.ofSeconds(seconds)));
    }
}
