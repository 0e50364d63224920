package dev.switchboard.server.admin;

import dev.switchboard.server.http.ErrorRenderer;
import dev.switchboard.server.http.Guard;
import dev.switchboard.server.http.Handler;
import dev.switchboard.server.http.Route;
import java.util.ArrayList;
import java.util.List;

/**
 * The admin API's routes (docs/admin.md): users, credits, keys, plans, usage, saved defaults and providers, every one
 * behind {@code guard} (the admin key or an admin's session, {@code auth/RouteGuards.admin}) and with endpoint name
 * {@code admin}. The catalog's and the dashboard credentials' admin routes are in {@code extend/ExtendRoutes}.
 */
public final class AdminRoutes {
    private AdminRoutes() {
    }

    public static List<Route> routes(AdminApi admin, UsageAdminApi usage, PlansAdminApi plans, DefaultsAdminApi defaults,
                                     ProvidersAdminApi providers, Guard guard, ErrorRenderer errors) {
        List<Route> r = new ArrayList<>();
        Adder add = (method, path, handler) -> r.add(new Route(method, path, "admin", errors, guard, handler));

        add.route("POST", "/admin/v1/users", admin::createUser);
        add.route("GET", "/admin/v1/users", admin::listUsers);
        add.route("GET", "/admin/v1/users/{id}", admin::getUser);
        add.route("GET", "/admin/v1/users/{id}/keys", admin::listKeys);
        add.route("POST", "/admin/v1/users/{id}/keys", admin::createKey);
        add.route("POST", "/admin/v1/users/{id}/credits", admin::addCredits);
        add.route("PUT", "/admin/v1/users/{id}/plan", admin::setPlan);
        add.route("GET", "/admin/v1/users/{id}/ledger", admin::ledger);
        add.route("PATCH", "/admin/v1/keys/{id}", admin::updateKey);
        add.route("DELETE", "/admin/v1/keys/{id}", admin::revokeKey);

        add.route("PUT", "/admin/v1/users/{id}/defaults/{model}", defaults::put);
        add.route("GET", "/admin/v1/users/{id}/defaults/{model}", defaults::get);
        add.route("DELETE", "/admin/v1/users/{id}/defaults/{model}", defaults::delete);

        add.route("GET", "/admin/v1/usage", usage::usage);
        add.route("GET", "/admin/v1/plans", plans::list);
        add.route("GET", "/admin/v1/providers", providers::list);
        return r;
    }

    @FunctionalInterface
    private interface Adder {
        void route(String method, String path, Handler handler);
    }
}
