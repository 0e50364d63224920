package dev.switchboard.server.extend;

import dev.switchboard.engine.extend.ItemKind;
import dev.switchboard.server.auth.AuthApi;
import dev.switchboard.server.auth.CredentialsAdminApi;
import dev.switchboard.server.auth.RouteGuards;
import dev.switchboard.server.http.ErrorRenderer;
import dev.switchboard.server.http.Guard;
import dev.switchboard.server.http.Handler;
import dev.switchboard.server.http.Route;
import java.util.ArrayList;
import java.util.List;

/**
 * The routes of the catalog, the dashboard sign-in and their admin side, in matching order: literal paths
 * ({@code /v1/skills/user}) come before the patterns they would otherwise match ({@code /v1/skills/{id}}).
 * Every error is the spec's envelope. The admin side is guarded here: curation by {@link RouteGuards#operator()},
 * dashboard credentials by {@link RouteGuards#admin()}.
 */
public final class ExtendRoutes {
    private ExtendRoutes() {
    }

    public static List<Route> routes(AuthApi auth, SkillsApi skills, CatalogApi catalog, ExtendAdminApi admin,
                                     CredentialsAdminApi credentials, RouteGuards guards, ErrorRenderer errors) {
        List<Route> r = new ArrayList<>();
        Adder add = guarded(r, Guard.OPEN, errors);
        Adder operator = guarded(r, guards.operator(), errors);
        Adder adminOnly = guarded(r, guards.admin(), errors);

        add.route("POST", "/auth/login", "auth", auth::login);
        add.route("GET", "/auth/me", "auth", auth::me);
        add.route("POST", "/auth/logout", "auth", auth::logout);
        add.route("POST", "/auth/signup", "auth", auth::signup);
        add.route("POST", "/auth/password", "auth", auth::changePassword);

        add.route("GET", "/v1/skills", "extend", skills::list);
        add.route("POST", "/v1/skills", "extend", skills::create);
        add.route("GET", "/v1/skills/user", "extend", skills::mine);
        add.route("GET", "/v1/skills/installed", "extend", skills::installed);
        add.route("GET", "/v1/skill-tags", "extend", skills::tags);
        add.route("POST", "/v1/skills/preview", "extend", skills::preview);
        add.route("GET", "/v1/skills/{id}", "extend", skills::get);
        add.route("PUT", "/v1/skills/{id}", "extend", skills::update);
        add.route("PATCH", "/v1/skills/{id}", "extend", skills::update);
        add.route("DELETE", "/v1/skills/{id}", "extend", skills::delete);
        add.route("POST", "/v1/skills/{id}/fork", "extend", skills::fork);
        add.route("POST", "/v1/skills/{id}/install", "extend", skills::install);
        add.route("DELETE", "/v1/skills/{id}/install", "extend", skills::uninstall);
        likes(add, ItemKind.SKILL, catalog);

        add.route("GET", "/v1/mcp-servers", "extend", catalog::mcpServers);
        add.route("GET", "/v1/mcp-servers/{id}", "extend", catalog::mcpServer);
        likes(add, ItemKind.MCP_SERVER, catalog);

        add.route("GET", "/v1/marketplaces", "extend", catalog::marketplaces);
        add.route("GET", "/v1/marketplaces/{id}", "extend", catalog::marketplace);
        likes(add, ItemKind.MARKETPLACE, catalog);

        add.route("GET", "/v1/characters", "extend", catalog::characters);
        add.route("GET", "/v1/characters/{id}", "extend", catalog::character);
        add.route("GET", "/v1/characters/{id}/card", "extend", catalog::characterCard);
        add.route("POST", "/v1/characters/{id}/interact", "extend", catalog::interact);
        likes(add, ItemKind.CHARACTER, catalog);
        add.route("GET", "/v1/tags", "extend", catalog::characterTags);

        add.route("GET", "/v1/plugins", "extend", catalog::plugins);
        add.route("GET", "/v1/plugins/verified", "extend", catalog::verifiedPlugins);
        add.route("GET", "/v1/plugins/download/{file_name}", "extend_download", catalog::download);
        add.route("GET", "/v1/plugins/{id}", "extend", catalog::plugin);

        operator.route("GET", "/admin/v1/extend/export", "admin", admin::export);
        operator.route("POST", "/admin/v1/extend/import", "admin", admin::importSeed);
        operator.route("PUT", "/admin/v1/extend/plugins/{id}/artifact", "admin", admin::uploadArtifact);
        operator.route("GET", "/admin/v1/extend/{kind}", "admin", admin::list);
        operator.route("GET", "/admin/v1/extend/{kind}/{id}", "admin", admin::get);
        operator.route("PUT", "/admin/v1/extend/{kind}/{id}", "admin", admin::put);
        operator.route("DELETE", "/admin/v1/extend/{kind}/{id}", "admin", admin::delete);
        adminOnly.route("PUT", "/admin/v1/users/{id}/password", "admin", credentials::setPassword);
        adminOnly.route("PUT", "/admin/v1/users/{id}/role", "admin", credentials::setRole);
        return r;
    }

    private static Adder guarded(List<Route> r, Guard guard, ErrorRenderer errors) {
        return (method, path, endpoint, handler) -> r.add(new Route(method, path, endpoint, errors, guard, handler));
    }

    private static void likes(Adder add, ItemKind kind, CatalogApi catalog) {
        add.route("POST", "/v1/" + kind.path() + "/{id}/like", "extend", catalog.like(kind));
        add.route("DELETE", "/v1/" + kind.path() + "/{id}/like", "extend", catalog.unlike(kind));
    }

    @FunctionalInterface
    private interface Adder {
        void route(String method, String path, String endpoint, Handler handler);
    }
}
