package dev.switchboard.server.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.extend.JsonInput;
import dev.switchboard.engine.session.DashboardRole;
import dev.switchboard.engine.session.Sessions;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.admin.AdminApi;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.util.Set;

/**
 * The admin API's dashboard credentials (admin key):
 * <ul>
 *   <li>{@code PUT /admin/v1/users/{id}/password} {@code {password}}: sets the password (PBKDF2) and ends every
 *       session of the user: {@code {id, password_set: true, sessions_ended}}.
 *   <li>{@code PUT /admin/v1/users/{id}/role} {@code {role: user | admin}}: {@code {id, role}}.
 * </ul>
 */
public final class CredentialsAdminApi {
    private final Sessions sessions;

    public CredentialsAdminApi(Sessions sessions) {
        this.sessions = sessions;
    }

    public void setPassword(Exchange ex) {
        JsonInput in = JsonInput.of(Json.parse(ex.body()), "");
        in.allowOnly(Set.of("password"), Set.of());
        String password = in.text("password", 4096, false).orElseThrow(() ->
                GatewayError.invalid("password", "password: required").toException());
        String id = ex.pathParam("id");
        int ended = AdminApi.call(() -> sessions.setPassword(id, password));
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("password_set", true);
        o.put("sessions_ended", ended);
        ex.respondJson(200, o);
    }

    public void setRole(Exchange ex) {
        JsonInput in = JsonInput.of(Json.parse(ex.body()), "");
        in.allowOnly(Set.of("role"), Set.of());
        String raw = in.requiredText("role", 16);
        DashboardRole role = DashboardRole.parse(raw).orElseThrow(() -> GatewayError.invalid("role", "role: expected user or admin, got '" + raw + "'")
                .toException());
        String id = ex.pathParam("id");
        AdminApi.call(() -> {
            sessions.setRole(id, role);
            return true;
        });
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("role", role.wire());
        ex.respondJson(200, o);
    }
}
