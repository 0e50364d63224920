package dev.switchboard.server.trace;

import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.server.config.TracingConfig;
import dev.switchboard.server.http.RequestObserver;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * OpenTelemetry tracing, when configured: the SDK's tracer provider, the W3C trace-context propagator, and the three
 * places they plug in (the edge's {@link RequestObserver} for server spans, a wrapper of each provider adapter for
 * the attempts' client spans, and the adapters' outgoing headers for {@code traceparent}/{@code tracestate}). When
 * tracing is off none of this exists: the composition root plugs nothing in, so the hot path makes no SDK call.
 *
 * <p>Spans are exported in batches with OTLP over HTTP (protobuf), sent by the JDK's HTTP client; a collector that
 * is away loses spans, never requests (the batch queue is bounded and drops when full).
 */
public final class Tracing implements AutoCloseable {
    private static final String SCOPE = "dev.switchboard.gateway";
    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final TextMapPropagator propagator = W3CTraceContextPropagator.getInstance();

    private Tracing(SdkTracerProvider provider) {
        this.provider = provider;
        this.tracer = provider.get(SCOPE);
    }

    /** Tracing as configured: empty when no OTLP endpoint is set. */
    public static Optional<Tracing> of(TracingConfig config) {
        return config.otlpEndpoint().map(endpoint -> exportingTo(BatchSpanProcessor.builder(
                OtlpHttpSpanExporter.builder().setEndpoint(endpoint.toString()).build()).build(), config.serviceName()));
    }

    /** Tracing that hands every ended span to {@code processor} (tests pass the SDK's in-memory exporter's). */
    public static Tracing exportingTo(SpanProcessor processor, String serviceName) {
        Resource resource = Resource.getDefault().merge(Resource.create(Attributes.of(
                AttributeKey.stringKey("service.name"), serviceName)));
        return new Tracing(SdkTracerProvider.builder().setResource(resource).addSpanProcessor(processor).build());
    }

    /** The server span of every routed request. */
    public RequestObserver requests() {
        return new ServerSpans(tracer, propagator);
    }

    /** {@code adapter} with a client span around each attempt. */
    public ProviderAdapter attempts(ProviderAdapter adapter) {
        return new TracedAdapter(adapter, tracer);
    }

    /** Adds the current span's trace context ({@code traceparent}, {@code tracestate}) to an upstream call's headers. */
    public UnaryOperator<HttpCall> outgoing() {
        return call -> {
            Map<String, String> headers = new HashMap<>(call.headers());
            propagator.inject(Context.current(), headers, (carrier, key, value) -> carrier.put(key, value));
            return new HttpCall(call.uri(), headers, call.body(), call.streaming());
        };
    }

    /** Exports what is still queued (at most 10 s) and stops. */
    @Override
    public void close() {
        provider.shutdown().join(10, TimeUnit.SECONDS);
    }
}
