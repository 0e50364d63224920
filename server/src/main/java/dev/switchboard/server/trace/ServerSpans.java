package dev.switchboard.server.trace;

import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.server.http.RequestObserver;
import dev.switchboard.server.http.Route;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One SERVER span per routed request, a child of the caller's W3C trace context ({@code traceparent},
 * {@code tracestate}) when it sent one, current while the handler runs (so the attempts' client spans are its
 * children). Named by method and route; HTTP attributes, and for chat requests the GenAI ones: the model asked and
 * the one that answered, and the tokens billed. Probes and metrics ({@code /health}, {@code /ready},
 * {@code /metrics}) get no span: they are scraped every few seconds and would bury the requests.
 */
final class ServerSpans implements RequestObserver {
    private static final Set<String> UNTRACED = Set.of("health", "ready", "metrics");
    private static final TextMapGetter<Exchange> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Exchange carrier) {
            return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(Exchange carrier, String key) {
            return carrier == null ? null : carrier.header(key).orElse(null);
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    ServerSpans(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    public Observation start(Route route, Exchange ex) {
        if (UNTRACED.contains(route.endpoint())) {
            return NOTHING;
        }
        Context parent = propagator.extract(Context.root(), ex, HEADERS);
        Span span = tracer.spanBuilder(route.method() + " " + route.pattern()).setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute(GenAiAttributes.HTTP_METHOD, route.method())
                .setAttribute(GenAiAttributes.HTTP_ROUTE, route.pattern())
                .setAttribute(GenAiAttributes.URL_PATH, ex.path())
                .setAttribute(GenAiAttributes.SWITCHBOARD_REQUEST_ID, ex.requestId())
                .startSpan();
        Scope scope = span.makeCurrent();
        return (status, refusal) -> {
            try {
                end(span, ex, status, refusal);
            } finally {
                scope.close();
            }
        };
    }

    private static void end(Span span, Exchange ex, int status, Optional<GatewayError> refusal) {
        span.setAttribute(GenAiAttributes.HTTP_STATUS, (long) status);
        ex.trace().filter(t -> !t.modelAsked().isEmpty()).ifPresent(t -> chat(span, t));
        refusal.ifPresent(e -> span.setAttribute(GenAiAttributes.ERROR_TYPE, e.type()));
        if (status >= 500) {
            span.setStatus(StatusCode.ERROR);
            if (refusal.isEmpty()) {
                span.setAttribute(GenAiAttributes.ERROR_TYPE, Integer.toString(status));
            }
        }
        span.end();
    }

    private static void chat(Span span, RequestTrace t) {
        span.setAttribute(GenAiAttributes.OPERATION, GenAiAttributes.CHAT);
        span.setAttribute(GenAiAttributes.REQUEST_MODEL, t.modelAsked());
        t.modelAnswered().ifPresent(m -> span.setAttribute(GenAiAttributes.RESPONSE_MODEL, m));
        if (t.usage().inputTokens() > 0 || t.usage().outputTokens() > 0) {
            span.setAttribute(GenAiAttributes.INPUT_TOKENS, t.usage().inputTokens());
            span.setAttribute(GenAiAttributes.OUTPUT_TOKENS, t.usage().outputTokens());
        }
    }
}
