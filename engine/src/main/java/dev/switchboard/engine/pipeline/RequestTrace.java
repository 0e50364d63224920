package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.route.AttemptLog;
import dev.switchboard.model.RateLimitStatus;
import dev.switchboard.model.Usage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What happened to one request, filled in as it goes and read by the edge for the request's log line and
 * metrics. Owned by the request's thread.
 */
public final class RequestTrace {
    private final String requestId;
    private final String endpoint;
    private final long startNanos = System.nanoTime();
    private final AttemptLog attempts = new AttemptLog();
    private String modelAsked = "";
    private Optional<String> modelAnswered = Optional.empty();
    private Usage usage = Usage.EMPTY;
    private Optional<String> streamEnd = Optional.empty();
    private List<String> skills = List.of();
    private String userId = "";
    private long costNanos;
    private List<String> notCarried = List.of();
    private Optional<RateLimitStatus> rateLimits = Optional.empty();

    public RequestTrace(String requestId, String endpoint) {
        this.requestId = Objects.requireNonNull(requestId);
        this.endpoint = Objects.requireNonNull(endpoint);
    }

    public String requestId() {
        return requestId;
    }

    /** The caller's user id once authenticated (never a key); empty before. */
    public String userId() {
        return userId;
    }

    void userId(String id) {
        userId = Objects.requireNonNull(id);
    }

    /** What the request cost at the answering model's prices, in nano-dollars; 0 when nothing answered. */
    public long costNanos() {
        return costNanos;
    }

    void costNanos(long nanos) {
        costNanos = nanos;
    }

    public String endpoint() {
        return endpoint;
    }

    public long startNanos() {
        return startNanos;
    }

    public AttemptLog attempts() {
        return attempts;
    }

    public String modelAsked() {
        return modelAsked;
    }

    void modelAsked(String m) {
        modelAsked = m;
    }

    public Optional<String> modelAnswered() {
        return modelAnswered;
    }

    void modelAnswered(String m) {
        modelAnswered = Optional.of(m);
    }

    public Usage usage() {
        return usage;
    }

    void usage(Usage u) {
        usage = u;
    }

    /**
     * The ids of the skills applied, in stack order: those of the candidate that answered, or, before any
     * answered, those of the requested model's candidate; empty when none applied.
     */
    public List<String> skills() {
        return skills;
    }

    void skills(List<String> ids) {
        skills = List.copyOf(ids);
    }

    /**
     * The request fields the answering upstream did not get (its format or server does not take them, or
     * the model refuses them), by name; the edge names them in a response header.
     */
    public List<String> notCarried() {
        return notCarried;
    }

    void notCarried(List<String> names) {
        notCarried = List.copyOf(names);
    }

    /** How a stream ended when it did not end normally ({@code client disconnected}, {@code upstream failed}). */
    public Optional<String> streamEnd() {
        return streamEnd;
    }

    void streamEnd(String how) {
        streamEnd = Optional.of(how);
    }

    /** Where the caller stands against its rate limits, as admission (granting or refusing) said; for the headers. */
    public Optional<RateLimitStatus> rateLimits() {
        return rateLimits;
    }

    void rateLimits(Optional<RateLimitStatus> status) {
        rateLimits = status;
    }
}
