package dev.switchboard.server.trace;

import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * One CLIENT span per upstream attempt around a provider adapter, a child of the request's server span (current on
 * the request's thread). The span is current while the call is sent, so the adapter's outgoing headers carry its
 * trace context to the provider. A whole answer ends the span when it is read; a stream ends it when the stream
 * ends or is closed (client gone, failover, shutdown). Attributes: the GenAI conventions (operation, provider,
 * requested and answering model, max tokens, tokens used), the provider's address, the HTTP status and
 * {@code error.type} of a failed attempt. Never a key, a prompt or an answer.
 */
final class TracedAdapter implements ProviderAdapter {
    private final ProviderAdapter delegate;
    private final Tracer tracer;

    TracedAdapter(ProviderAdapter delegate, Tracer tracer) {
        this.delegate = delegate;
        this.tracer = tracer;
    }

    @Override
    public ChatResponse complete(Attempt attempt) {
        Span span = start(attempt);
        try (Scope ignored = span.makeCurrent()) {
            ChatResponse answer = delegate.complete(attempt);
            span.setAttribute(GenAiAttributes.HTTP_STATUS, 200L);
            answered(span, Optional.of(answer.model()), answer.usage());
            return answer;
        } catch (RuntimeException | Error e) {
            failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    @Override
    public EventSource stream(Attempt attempt) {
        Span span = start(attempt);
        EventSource source;
        try (Scope ignored = span.makeCurrent()) {
            source = delegate.stream(attempt);
        } catch (RuntimeException | Error e) {
            failed(span, e);
            span.end();
            throw e;
        }
        span.setAttribute(GenAiAttributes.HTTP_STATUS, 200L);
        return new TracedSource(source, span);
    }

    @Override
    public List<String> notCarried(Attempt attempt) {
        return delegate.notCarried(attempt);
    }

    private Span start(Attempt attempt) {
        String provider = GenAiAttributes.providerName(attempt.provider().type());
        SpanBuilder b = tracer.spanBuilder(GenAiAttributes.CHAT + " " + attempt.upstreamModel()).setSpanKind(SpanKind.CLIENT)
                .setAttribute(GenAiAttributes.OPERATION, GenAiAttributes.CHAT)
                .setAttribute(GenAiAttributes.PROVIDER, provider)
                .setAttribute(GenAiAttributes.SYSTEM, provider)
                .setAttribute(GenAiAttributes.REQUEST_MODEL, attempt.upstreamModel())
                .setAttribute(GenAiAttributes.SWITCHBOARD_PROVIDER, attempt.provider().id());
        attempt.request().maxTokens().ifPresent(n -> b.setAttribute(GenAiAttributes.REQUEST_MAX_TOKENS, (long) n));
        URI base = attempt.provider().baseUrl();
        if (base != null && base.getHost() != null) {
            b.setAttribute(GenAiAttributes.HTTP_METHOD, "POST");
            b.setAttribute(GenAiAttributes.SERVER_ADDRESS, base.getHost());
            int port = base.getPort() >= 0 ? base.getPort() : "https".equalsIgnoreCase(base.getScheme()) ? 443 : 80;
            b.setAttribute(GenAiAttributes.SERVER_PORT, (long) port);
        }
        return b.startSpan();
    }

    private static void answered(Span span, Optional<String> model, Usage usage) {
        model.filter(m -> !m.isEmpty()).ifPresent(m -> span.setAttribute(GenAiAttributes.RESPONSE_MODEL, m));
        span.setAttribute(GenAiAttributes.INPUT_TOKENS, usage.inputTokens());
        span.setAttribute(GenAiAttributes.OUTPUT_TOKENS, usage.outputTokens());
    }

    /** The kind of failure, never its message (a provider's message may quote the request). */
    private static void failed(Span span, Throwable e) {
        span.setStatus(StatusCode.ERROR);
        if (e instanceof UpstreamFailure f) {
            if (f.status() > 0) {
                span.setAttribute(GenAiAttributes.HTTP_STATUS, (long) f.status());
                span.setAttribute(GenAiAttributes.ERROR_TYPE, Integer.toString(f.status()));
            } else {
                span.setAttribute(GenAiAttributes.ERROR_TYPE, f.kind().name().toLowerCase(java.util.Locale.ROOT));
            }
        } else {
            span.setAttribute(GenAiAttributes.ERROR_TYPE, e.getClass().getName());
        }
    }

    /** Watches a stream for the answering model and the usage, and ends the span once, when the stream ends. */
    private static final class TracedSource implements EventSource {
        private final EventSource source;
        private final Span span;
        private Optional<String> model = Optional.empty();
        private long input;
        private long output;
        private boolean ended;

        TracedSource(EventSource source, Span span) {
            this.source = source;
            this.span = span;
        }

        @Override
        public Optional<StreamEvent> next() {
            Optional<StreamEvent> event;
            try {
                event = source.next();
            } catch (RuntimeException | Error e) {
                failed(span, e);
                end();
                throw e;
            }
            event.ifPresent(this::observe);
            return event;
        }

        private void observe(StreamEvent e) {
            switch (e) {
                case StreamEvent.MessageStart s -> {
                    model = Optional.of(s.model());
                    usage(s.usage());
                }
                case StreamEvent.MessageDelta d -> usage(d.usage());
                case StreamEvent.StreamError err -> {
                    span.setStatus(StatusCode.ERROR);
                    span.setAttribute(GenAiAttributes.ERROR_TYPE, err.error().type());
                }
                default -> {
                }
            }
        }

        private void usage(Usage u) {
            // providers report input at the start and output at the end, some cumulatively: keep the largest of each
            input = Math.max(input, u.inputTokens());
            output = Math.max(output, u.outputTokens());
        }

        @Override
        public boolean hasBuffered() {
            return source.hasBuffered();
        }

        @Override
        public void close() {
            try {
                source.close();
            } finally {
                end();
            }
        }

        private void end() {
            if (ended) {
                return;
            }
            ended = true;
            answered(span, model, new Usage(input, output, 0, 0, 0, 0, Usage.Provenance.REPORTED));
            span.end();
        }
    }
}
