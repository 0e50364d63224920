package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.route.Answer;
import dev.switchboard.engine.route.FailoverRouter;
import dev.switchboard.engine.route.OpenStream;
import dev.switchboard.engine.tokens.TokenEstimator;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat pipeline every client format calls with a canonical request: resolve the model and the
 * caller's fallbacks, check the caller may use them, fit the request to each model, run the failover
 * loop, present the answer (reasoning format), and report what happened in the {@link RequestTrace}.
 * It knows nothing of HTTP or wire formats.
 */
public final class ChatService {
    private static final Logger LOG = LoggerFactory.getLogger(ChatService.class);

    private final Catalog catalog;
    private final FailoverRouter router;
    private final GatewayMetrics metrics;

    public ChatService(Catalog catalog, FailoverRouter router, GatewayMetrics metrics) {
        this.catalog = catalog;
        this.router = router;
        this.metrics = metrics;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** A complete answer; {@code model} in it is the model that answered. */
    public ChatResponse complete(Caller caller, ChatRequest request, RequestTrace trace) {
        List<ModelEntry> candidates = candidates(caller, request, trace);
        Answer<ChatResponse> answer = router.complete(candidates, m -> RequestShaper.shape(request, m), trace.attempts());
        ChatResponse response = answer.value().withModel(answer.model().id());
        trace.modelAnswered(answer.model().id());
        trace.usage(response.usage());
        metrics.tokens(answer.model().id(), response.usage().inputTokens(), response.usage().outputTokens());
        return new ReasoningPresenter(request.reasoning()).present(response);
    }

    /**
     * Streams an answer to {@code sink}. Failures before the first upstream event throw a
     * {@code GatewayException} (nothing was sent; the edge answers with a plain error). After it, a failure
     * is delivered in-band as a {@link StreamEvent.StreamError} and the stream ends; a client that went
     * away cancels the upstream request at once.
     */
    public void stream(Caller caller, ChatRequest request, RequestTrace trace, StreamSink sink) {
        List<ModelEntry> candidates = candidates(caller, request, trace);
        Answer<OpenStream> answer = router.stream(candidates, m -> RequestShaper.shape(request, m), trace.attempts());
        String model = answer.model().id();
        trace.modelAnswered(model);
        ReasoningPresenter presenter = new ReasoningPresenter(request.reasoning());
        StreamAccumulator seen = new StreamAccumulator();
        OpenStream open = answer.value();
        metrics.streamOpened();
        try (var source = open.source()) {
            sink.onClientGone(source::close);
            Optional<StreamEvent> next = Optional.of(open.first());
            while (next.isPresent()) {
                StreamEvent event = renamed(next.get(), model);
                seen.accept(event);
                List<StreamEvent> shown = presenter.present(event);
                for (int i = 0; i < shown.size(); i++) {
                    sink.send(shown.get(i), i < shown.size() - 1 || source.hasBuffered());
                }
                if (event instanceof StreamEvent.StreamError || event instanceof StreamEvent.MessageStop) {
                    break;
                }
                next = source.next();
            }
            if (!seen.complete() && seen.error().isEmpty()) {
                fail(sink, seen, GatewayError.upstreamUnavailable("The provider ended the stream before it was complete."), trace);
            } else if (seen.error().isPresent()) {
                trace.streamEnd("upstream error in stream");
            }
        } catch (UpstreamFailure f) {
            try {
                fail(sink, seen, GatewayError.upstreamUnavailable("The provider failed mid-stream: " + f.label() + "."), trace);
            } catch (ClientGoneException gone) {
                trace.streamEnd("client disconnected");
            }
        } catch (ClientGoneException gone) {
            trace.streamEnd("client disconnected");
            LOG.atInfo().addKeyValue("request_id", trace.requestId()).log("client disconnected; upstream request cancelled");
        } finally {
            metrics.streamClosed();
        }
        Usage usage = seen.usage();
        if (!seen.complete()) {
            // no final usage from the upstream: bill input plus what was delivered, marked as estimated
            usage = new Usage(Math.max(usage.inputTokens(), TokenEstimator.ofPrompt(request)),
                    Math.max(usage.outputTokens(), TokenEstimator.ofText(seen.textSoFar())), usage.reasoningTokens(),
                    usage.cacheReadTokens(), usage.cacheWrite5mTokens(), usage.cacheWrite1hTokens(), Usage.Provenance.ESTIMATED);
        }
        trace.usage(usage);
        metrics.tokens(model, usage.inputTokens(), usage.outputTokens());
    }

    private void fail(StreamSink sink, StreamAccumulator seen, GatewayError error, RequestTrace trace) throws ClientGoneException {
        trace.streamEnd("upstream failed mid-stream");
        sink.send(new StreamEvent.StreamError(error));
        seen.accept(new StreamEvent.StreamError(error));
    }

    private static StreamEvent renamed(StreamEvent e, String model) {
        if (e instanceof StreamEvent.MessageStart s) {
            return new StreamEvent.MessageStart(s.id(), model, s.usage());
        }
        return e;
    }

    /** The requested model then the usable fallbacks, each at most once. */
    private List<ModelEntry> candidates(Caller caller, ChatRequest request, RequestTrace trace) {
        trace.modelAsked(request.model());
        ModelEntry primary = catalog.resolve(request.model())
                .orElseThrow(() -> GatewayError.modelNotFound(request.model()).toException());
        if (!caller.mayUseModel(primary.id()) && !caller.mayUseModel(request.model())) {
            throw GatewayError.forbidden("insufficient_scope",
                    "This API key may not use the model '" + request.model() + "'.").toException();
        }
        if (!primary.availableOn(caller.plan())) {
            throw GatewayError.forbidden("model_access_denied",
                    "The model '" + request.model() + "' is not included in your plan (" + caller.plan() + ").").toException();
        }
        RequestShaper.incompatibility(request, primary).ifPresent(e -> {
            throw e.toException();
        });
        Set<String> seen = new LinkedHashSet<>();
        seen.add(primary.id());
        List<ModelEntry> out = new ArrayList<>();
        out.add(primary);
        for (String id : request.fallbackModels()) {
            Optional<ModelEntry> m = catalog.resolve(id);
            String why = m.isEmpty() ? "unknown model"
                    : !m.get().availableOn(caller.plan()) ? "not in the caller's plan"
                    : !caller.mayUseModel(m.get().id()) ? "outside the key's scope"
                    : RequestShaper.incompatibility(request, m.get()).map(GatewayError::message).orElse("");
            if (!why.isEmpty()) {
                LOG.atInfo().addKeyValue("request_id", trace.requestId()).addKeyValue("fallback", id)
                        .log("fallback skipped: {}", why);
            } else if (seen.add(m.get().id())) {
                out.add(m.get());
            }
        }
        return out;
    }

}
