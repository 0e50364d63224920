package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The path every request takes, whatever the dialect: record it, find the dialect, check the key, hand
 * it to a scripted {@link Responder} if its model has one, apply the shared {@link Faults}, and let the
 * dialect answer.
 */
final class Dispatcher implements RawHttpServer.Handler {

    private final List<FakeDialect> dialects;
    private final Settings settings;
    private final RequestLog log;
    private final Duration slowFirstDelay;

    Dispatcher(List<FakeDialect> dialects, Settings settings, RequestLog log, Duration slowFirstDelay) {
        this.dialects = List.copyOf(dialects);
        this.settings = settings;
        this.log = log;
        this.slowFirstDelay = slowFirstDelay;
    }

    @Override
    public void handle(RecordedRequest request, RawExchange exchange) throws IOException {
        log.add(request);
        Optional<FakeDialect> found = dialects.stream().filter(d -> d.serves(request)).findFirst();
        if (found.isEmpty()) {
            exchange.respondJson(404, noRoute(request));
            return;
        }
        FakeDialect dialect = found.get();
        Optional<Integer> denied = settings.keyVerdict(dialect.apiKey(request));
        if (denied.isPresent()) {
            int status = denied.get();
            dialect.sendError(exchange, status, status == 401
                    ? "Incorrect API key provided."
                    : "Fake upstream: scripted status " + status + " for this API key");
            return;
        }
        String model = request.model().orElse("");
        Optional<Responder> scripted = settings.script(model);
        if (scripted.isPresent()) {
            scripted.get().respond(request, exchange);
            return;
        }
        Scenario scenario = Scenario.of(model);
        if (Faults.intercept(scenario, model, dialect, exchange, slowFirstDelay)) {
            return;
        }
        dialect.serve(request, scenario, exchange);
    }

    // No dialect claimed the path, so no provider's envelope is more right than another's.
    private static ObjectNode noRoute(RecordedRequest request) {
        ObjectNode body = TestkitJson.object();
        body.putObject("error")
                .put("message", "Fake upstream has no route for " + request.method() + " " + request.path())
                .put("type", "not_found_error");
        return body;
    }
}
