package dev.switchboard.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.KeyScope;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.gemini.Gemini;
import java.util.List;
import java.util.Optional;

/**
 * Model discovery for content-parts clients: {@code GET /v1beta/models} (paged as Google pages it:
 * {@code pageSize} default 50, at most 1000; {@code pageToken} from the previous page's
 * {@code nextPageToken}) and {@code GET /v1beta/models/{model}}, both in the shape of Google's Model
 * resource ({@code name: models/<id>}). Only models the caller's plan and key may use exist here: any
 * other is 404, as an unknown one is (spec 7). An alias finds its model, named by its canonical id.
 */
public final class GeminiModelsApi {
    static final int DEFAULT_PAGE_SIZE = 50;
    static final int MAX_PAGE_SIZE = 1000;

    private final Catalog catalog;
    private final Authenticator auth;
    private final String prefix;

    /** {@code prefix} is the path up to the model, e.g. {@code /v1beta/models/}. */
    public GeminiModelsApi(Catalog catalog, Authenticator auth, String prefix) {
        this.catalog = catalog;
        this.auth = auth;
        this.prefix = prefix;
    }

    public void list(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.GOOGLE, KeyScope.MODELS);
        int size = pageSize(ex.query("pageSize"));
        int offset = offset(ex.query("pageToken"));
        List<ModelEntry> visible = catalog.models().stream().filter(m -> visibleTo(caller, m)).toList();
        List<ObjectNode> page = visible.stream().skip(offset).limit(size).map(GeminiModelsApi::resource).toList();
        Optional<String> next = offset + size < visible.size() ? Optional.of(Integer.toString(offset + size)) : Optional.empty();
        ex.respond(200, "application/json; charset=utf-8", Json.writeBytes(Gemini.modelList(page, next)));
    }

    public void get(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.GOOGLE, KeyScope.MODELS);
        ModelPath path = ModelPath.parse(ex.path(), prefix);
        if (path.method().isPresent()) {
            throw GatewayError.notFound("Method '" + path.method().get() + "' is not available with GET; use POST.").toException();
        }
        ModelEntry m = catalog.resolve(path.model()).filter(e -> visibleTo(caller, e))
                .orElseThrow(() -> GatewayError.modelNotFound(path.model()).toException());
        ex.respond(200, "application/json; charset=utf-8", Json.writeBytes(resource(m)));
    }

    private boolean visibleTo(Caller caller, ModelEntry m) {
        return catalog.plans().access(caller.plan(), m).usable() && caller.mayUseModel(m.id());
    }

    static ObjectNode resource(ModelEntry m) {
        return Gemini.modelResource(m.id(), m.displayName().orElse(m.id()), Optional.empty(), m.contextLength(),
                m.maxOutputTokens(), m.capabilities().supportsReasoning());
    }

    private static int pageSize(Optional<String> given) {
        if (given.isEmpty() || given.get().isBlank()) {
            return DEFAULT_PAGE_SIZE;
        }
        int n = parse(given.get(), "pageSize", "pageSize must be a whole number from 1 to " + MAX_PAGE_SIZE + ".");
        // Google treats 0 as "unspecified" and caps larger values rather than refusing them.
        return n == 0 ? DEFAULT_PAGE_SIZE : Math.min(n, MAX_PAGE_SIZE);
    }

    private static int offset(Optional<String> token) {
        if (token.isEmpty() || token.get().isBlank()) {
            return 0;
        }
        return parse(token.get(), "pageToken", "pageToken is not one this server issued; pass nextPageToken unchanged.");
    }

    private static int parse(String text, String param, String message) {
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the field's name
        }
        throw GatewayError.invalid(param, message).toException();
    }
}
