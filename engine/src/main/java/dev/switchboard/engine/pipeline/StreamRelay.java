package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.route.Answer;
import dev.switchboard.engine.route.OpenStream;
import dev.switchboard.engine.tokens.TokenEstimator;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The post-process stage for a committed stream: relays its events to the client's sink (named after the
 * answering model, reasoning shown as the caller asked), and ends it properly whatever happens. A failure
 * after the commit is delivered in-band as a {@link StreamEvent.StreamError} (a stream never ends silently
 * truncated); a client that leaves cancels the upstream request at once. The result says how the stream
 * ended and its usage: the upstream's final usage, or, when it gave none, input plus the output delivered
 * so far, marked {@link Usage.Provenance#ESTIMATED}.
 */
final class StreamRelay {
    private static final Logger LOG = LoggerFactory.getLogger(StreamRelay.class);

    /** How the relay ended, and what the stream used. */
    record Result(RequestOutcome.Ending ending, Usage usage) {
    }

    private final GatewayMetrics metrics;

    StreamRelay(GatewayMetrics metrics) {
        this.metrics = metrics;
    }

    Result relay(ChatRequest asked, Answer<OpenStream> answer, StreamSink sink, RequestTrace trace) {
        String model = answer.model().id();
        ReasoningPresenter presenter = new ReasoningPresenter(asked.reasoning());
        StreamAccumulator seen = new StreamAccumulator();
        OpenStream open = answer.value();
        RequestOutcome.Ending ending = RequestOutcome.Ending.COMPLETED;
        metrics.streamOpened();
        try (EventSource source = open.source()) {
            sink.onClientGone(source::close);
            List<StreamEvent> held = open.held();
            int next = 0;
            boolean more = true;
            while (more) {
                Optional<StreamEvent> upstream = next < held.size() ? Optional.of(held.get(next++)) : source.next();
                if (upstream.isEmpty()) {
                    break;
                }
                StreamEvent event = inBand(renamed(upstream.get(), model));
                seen.accept(event);
                List<StreamEvent> shown = presenter.present(event);
                boolean ready = next < held.size() || source.hasBuffered();
                for (int i = 0; i < shown.size(); i++) {
                    sink.send(shown.get(i), i < shown.size() - 1 || ready);
                }
                more = !(event instanceof StreamEvent.StreamError || event instanceof StreamEvent.MessageStop);
            }
            if (seen.error().isPresent()) {
                trace.streamEnd("upstream error in stream");
                ending = RequestOutcome.Ending.CUT;
            } else if (!seen.complete()) {
                ending = fail(sink, seen, "The provider ended the stream before it was complete.", trace);
            }
        } catch (UpstreamFailure f) {
            ending = fail(sink, seen, "The provider failed mid-stream: " + f.label() + ".", trace);
        } catch (ClientGoneException gone) {
            ending = clientGone(trace);
        } finally {
            metrics.streamClosed();
        }
        return new Result(ending, usage(seen, answer.candidate().request()));
    }

    /**
     * One rule for the status of an error reported inside a stream, in every client format, and the same as
     * for an error answered before a stream started (docs/contracts.md §1): a rate limit stays 429, a refusal of the
     * request (a 4xx that no retry would change) stays what it is, and every other failure, whether the
     * upstream reported it (Anthropic's 529 overloaded, a 500) or the gateway found it (a stream cut short or
     * malformed), is 503 {@code api_error}. The upstream's own words stay in the message.
     */
    static StreamEvent inBand(StreamEvent event) {
        if (event instanceof StreamEvent.StreamError e) {
            GatewayError error = e.error();
            boolean keep = error.status() == 429 || error.status() == 503 || error.status() < 500 && !error.retryable();
            return keep ? event : new StreamEvent.StreamError(GatewayError.upstreamUnavailable(error.message()));
        }
        return event;
    }

    private static RequestOutcome.Ending fail(StreamSink sink, StreamAccumulator seen, String message, RequestTrace trace) {
        // the gateway cut the upstream itself (shutting down): say so, not that the provider failed
        Optional<String> byGateway = sink.endedByGateway();
        trace.streamEnd(byGateway.isPresent() ? "ended by gateway shutdown" : "upstream failed mid-stream");
        StreamEvent.StreamError error = new StreamEvent.StreamError(GatewayError.upstreamUnavailable(byGateway.orElse(message)));
        seen.accept(error);
        try {
            sink.send(error);
            return RequestOutcome.Ending.CUT;
        } catch (ClientGoneException gone) {
            return clientGone(trace);
        }
    }

    private static RequestOutcome.Ending clientGone(RequestTrace trace) {
        trace.streamEnd("client disconnected");
        LOG.atInfo().addKeyValue("request_id", trace.requestId()).log("client disconnected; upstream request cancelled");
        return RequestOutcome.Ending.CLIENT_GONE;
    }

    /** The upstream's usage; for a stream that did not finish, input plus what was delivered, estimated. */
    private static Usage usage(StreamAccumulator seen, ChatRequest sent) {
        Usage usage = seen.usage();
        if (seen.complete()) {
            return usage;
        }
        return new Usage(Math.max(usage.inputTokens(), TokenEstimator.ofPrompt(sent)),
                Math.max(usage.outputTokens(), TokenEstimator.ofText(seen.textSoFar())), usage.reasoningTokens(),
                usage.cacheReadTokens(), usage.cacheWrite5mTokens(), usage.cacheWrite1hTokens(), Usage.Provenance.ESTIMATED);
    }

    private static StreamEvent renamed(StreamEvent e, String model) {
        if (e instanceof StreamEvent.MessageStart s) {
            return new StreamEvent.MessageStart(s.id(), model, s.usage());
        }
        return e;
    }
}
