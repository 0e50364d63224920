package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.context.ContextWindow;
import dev.switchboard.engine.defaults.ModelDefaults;
import dev.switchboard.engine.media.FetchLimits;
import dev.switchboard.engine.media.ImageFetcher;
import dev.switchboard.engine.media.ImageInliner;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.route.Answer;
import dev.switchboard.engine.route.FailoverRouter;
import dev.switchboard.engine.route.OpenStream;
import dev.switchboard.engine.structured.StructuredOutput;
import dev.switchboard.engine.tokens.TokenEstimator;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat pipeline every client format calls with a canonical request: resolve the model and the
 * caller's fallbacks, check the caller may use them, prepare the request for each candidate model (the
 * caller's saved defaults for that model unless {@code ignore_defaults}, capability checks, shaping, the
 * context window and middle-out), run the failover loop (image URLs fetched as bytes just before an
 * attempt whose provider needs them), present the answer (JSON extraction, reasoning format), and
 * report what happened in the {@link RequestTrace}. It knows nothing of HTTP or wire formats.
 *
 * <p>A candidate that cannot take the request is a 400 when it is the requested model and is skipped
 * (and logged) when it is a caller fallback.
 */
public final class ChatService {
    private static final Logger LOG = LoggerFactory.getLogger(ChatService.class);

    private final Catalog catalog;
    private final FailoverRouter router;
    private final GatewayMetrics metrics;
    private final ModelDefaults.Lookup defaults;
    private final ImageInliner images;

    /** A pipeline without saved defaults, fetching images with the production guard and limits. */
    public ChatService(Catalog catalog, FailoverRouter router, GatewayMetrics metrics) {
        this(catalog, router, metrics, ModelDefaults.Lookup.NONE, new ImageInliner(new ImageFetcher(FetchLimits.DEFAULT)));
    }

    public ChatService(Catalog catalog, FailoverRouter router, GatewayMetrics metrics, ModelDefaults.Lookup defaults,
                       ImageInliner images) {
        this.catalog = catalog;
        this.router = router;
        this.metrics = metrics;
        this.defaults = defaults;
        this.images = images;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** A complete answer; {@code model} in it is the model that answered. */
    public ChatResponse complete(Caller caller, ChatRequest request, RequestTrace trace) {
        Map<String, ChatRequest> prepared = candidates(caller, request, trace);
        Answer<ChatResponse> answer = router.complete(models(prepared), m -> prepared.get(m.id()), images.forRequest(),
                trace.attempts());
        ChatResponse response = answer.value().withModel(answer.model().id());
        trace.modelAnswered(answer.model().id());
        trace.usage(response.usage());
        metrics.tokens(answer.model().id(), response.usage().inputTokens(), response.usage().outputTokens());
        response = StructuredOutput.present(prepared.get(answer.model().id()), response);
        return new ReasoningPresenter(request.reasoning()).present(response);
    }

    /**
     * Streams an answer to {@code sink}. Failures before the first upstream event throw a
     * {@code GatewayException} (nothing was sent; the edge answers with a plain error). After it, a failure
     * is delivered in-band as a {@link StreamEvent.StreamError} and the stream ends; a client that went
     * away cancels the upstream request at once.
     */
    public void stream(Caller caller, ChatRequest request, RequestTrace trace, StreamSink sink) {
        Map<String, ChatRequest> prepared = candidates(caller, request, trace);
        Answer<OpenStream> answer = router.stream(models(prepared), m -> prepared.get(m.id()), images.forRequest(),
                trace.attempts());
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
            usage = new Usage(Math.max(usage.inputTokens(), TokenEstimator.ofPrompt(prepared.get(model))),
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

    private List<ModelEntry> models(Map<String, ChatRequest> prepared) {
        List<ModelEntry> out = new ArrayList<>();
        for (String id : prepared.keySet()) {
            out.add(catalog.resolve(id).orElseThrow());
        }
        return out;
    }

    /**
     * The estimated prompt size of {@code request} for {@code count_tokens}: about four characters per
     * token over system, messages and tools (spec 4, 8). The model must exist and be one the caller may
     * use, as for a chat; nothing reaches an upstream and nothing is billed (the trace records no usage).
     */
    public long countTokens(Caller caller, ChatRequest request, RequestTrace trace) {
        primary(caller, request, trace);
        return TokenEstimator.ofPrompt(request);
    }

    /** The requested model, when it exists and the caller's key and plan allow it. */
    private ModelEntry primary(Caller caller, ChatRequest request, RequestTrace trace) {
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
        return primary;
    }

    /**
     * The requested model then the usable fallbacks, each at most once, in order, keyed by model id, each
     * with the request as it will be sent to that model.
     */
    private Map<String, ChatRequest> candidates(Caller caller, ChatRequest request, RequestTrace trace) {
        ModelEntry primary = primary(caller, request, trace);
        Map<String, ChatRequest> out = new LinkedHashMap<>();
        out.put(primary.id(), prepare(caller, request, primary, trace));
        for (String id : request.fallbackModels()) {
            Optional<ModelEntry> m = catalog.resolve(id);
            String why = m.isEmpty() ? "unknown model"
                    : !m.get().availableOn(caller.plan()) ? "not in the caller's plan"
                    : !caller.mayUseModel(m.get().id()) ? "outside the key's scope"
                    : "";
            if (why.isEmpty() && !out.containsKey(m.get().id())) {
                try {
                    out.put(m.get().id(), prepare(caller, request, m.get(), trace));
                } catch (GatewayException e) {
                    why = e.error().message();
                }
            }
            if (!why.isEmpty()) {
                LOG.atInfo().addKeyValue("request_id", trace.requestId()).addKeyValue("fallback", id)
                        .log("fallback skipped: {}", why);
            }
        }
        return out;
    }

    /**
     * The request as {@code model} should get it: the caller's saved defaults for that model filled in,
     * then checked, shaped and fitted to the model's context window.
     *
     * @throws GatewayException 400 when the model cannot take the request
     */
    private ChatRequest prepare(Caller caller, ChatRequest request, ModelEntry model, RequestTrace trace) {
        ChatRequest r = request.ignoreDefaults() ? request
                : defaults.find(caller.userId(), model.id()).map(d -> d.applyTo(request)).orElse(request);
        RequestShaper.incompatibility(r, model).ifPresent(e -> {
            throw e.toException();
        });
        return switch (ContextWindow.fit(RequestShaper.shape(r, model), model)) {
            case ContextWindow.Fits f -> f.request();
            case ContextWindow.Trimmed t -> {
                LOG.atInfo().addKeyValue("request_id", trace.requestId()).addKeyValue("model", model.id())
                        .addKeyValue("dropped_messages", t.dropped()).log("middle-out trimmed the conversation");
                yield t.request();
            }
            case ContextWindow.Overflow o -> throw o.error().toException();
        };
    }

}
