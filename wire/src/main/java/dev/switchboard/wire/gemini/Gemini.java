package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.NotCarried;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The Gemini content-parts wire format ({@code generateContent}, {@code streamGenerateContent}), both
 * directions, as pure functions: no I/O, no logging, no clock, no randomness (generated ids derive from
 * positions or content).
 *
 * <p>Client side (callers speak this format, spec 2.9): {@link #fromClient}, {@link #toClient},
 * {@link #errorBody}, {@link #modelResource} / {@link #modelList}, and one
 * {@link GeminiClientStreamWriter} per streamed answer. Upstream side (Google's Gemini API):
 * {@link #toUpstream}, {@link #path}, {@link #fromUpstream}, {@link #errorFromUpstream}, and one
 * {@link GeminiUpstreamStreamParser} per upstream stream.
 *
 * <p>Client input that breaks the format's rules throws a 400 {@link dev.switchboard.model.GatewayException}
 * whose {@code param} is the JSON path of the offending field (e.g. {@code contents[1].parts[0]}); no other
 * exception escapes for bad input. Thought signatures read here carry origin {@link #FORMAT}; only those
 * are ever written back, on the part they came with.
 */
public final class Gemini {
    /** The format's name, as used by {@link dev.switchboard.model.Passthrough} and signature origins. */
    public static final String FORMAT = "gemini";

    /** The {@code thoughtSignature} sent for function calls of history that has none (see {@link #toUpstream}). */
    public static final String SKIP_SIGNATURE_PLACEHOLDER = GeminiSignatures.SKIP_VALIDATOR;

    private Gemini() {
    }

    /**
     * Reads a client's request body (spec 2.9). The model comes from the path, never from the body.
     *
     * @throws dev.switchboard.model.GatewayException 400 on invalid input, naming the field
     */
    public static ChatRequest fromClient(String modelFromPath, JsonNode body) {
        return GeminiClientRequestReader.read(modelFromPath, body, false);
    }

    /** As {@link #fromClient(String, JsonNode)}, for the streaming endpoint when {@code stream} is true. */
    public static ChatRequest fromClient(String modelFromPath, JsonNode body, boolean stream) {
        return GeminiClientRequestReader.read(modelFromPath, body, stream);
    }

    /** Parses and reads a client's request body; malformed JSON is a 400 too. */
    public static ChatRequest fromClient(String modelFromPath, byte[] body, boolean stream) {
        return GeminiClientRequestReader.read(modelFromPath, Json.parse(body), stream);
    }

    /** Renders an answer for a client; {@code modelVersion} is {@code requestedModel}. */
    public static ObjectNode toClient(ChatResponse response, String requestedModel) {
        return GeminiClientResponseWriter.write(response, requestedModel);
    }

    /**
     * The HTTP error body for a client: the spec's {@code {"error": {message, type, param, code}}} with
     * {@code code} the status as a string, plus Google's {@code status} word ({@code INVALID_ARGUMENT},
     * {@code UNAUTHENTICATED}, {@code PERMISSION_DENIED}, {@code NOT_FOUND}, {@code RESOURCE_EXHAUSTED},
     * {@code UNAVAILABLE}, {@code INTERNAL}...). Google's SDKs take an HTTP error's code from the status
     * line and read only {@code message} and {@code status} from the body, so both are satisfied. (In a
     * stream the code is a number instead: see {@link GeminiClientStreamWriter}.)
     */
    public static ObjectNode errorBody(GatewayError error) {
        return GeminiErrors.body(error);
    }

    /**
     * One entry of {@code GET /v1beta/models} (and the body of {@code GET /v1beta/models/{id}}), in the
     * shape of Google's Model resource.
     *
     * @param id               the gateway model id; {@code name} is {@code models/<id>}
     * @param displayName      a human-readable name
     * @param description      a short description, if any
     * @param inputTokenLimit  the context length
     * @param outputTokenLimit the model's max output tokens
     * @param thinking         whether the model accepts reasoning controls
     */
    public static ObjectNode modelResource(String id, String displayName, Optional<String> description,
                                           long inputTokenLimit, long outputTokenLimit, boolean thinking) {
        ObjectNode m = Json.object();
        m.put("name", "models/" + id);
        m.put("baseModelId", id);
        m.put("displayName", displayName);
        description.ifPresent(d -> m.put("description", d));
        m.put("inputTokenLimit", inputTokenLimit);
        m.put("outputTokenLimit", outputTokenLimit);
        m.putArray("supportedGenerationMethods").add("generateContent").add("streamGenerateContent");
        m.put("thinking", thinking);
        return m;
    }

    /** The {@code GET /v1beta/models} envelope {@code {models, nextPageToken?}}. */
    public static ObjectNode modelList(List<ObjectNode> models, Optional<String> nextPageToken) {
        ObjectNode list = Json.object();
        ArrayNode array = list.putArray("models");
        models.forEach(array::add);
        nextPageToken.ifPresent(t -> list.put("nextPageToken", t));
        return list;
    }

    /**
     * Renders a request for Google's Gemini API with {@link GeminiUpstreamOptions#DEFAULT}. The model is
     * not in the body: it goes in the URL ({@link #path}).
     *
     * <p>A model turn whose function calls carry no Gemini signature gets
     * {@link #SKIP_SIGNATURE_PLACEHOLDER} on its first call, the value Google documents for history that
     * never had one (Gemini 3 answers 400 without it).
     *
     * @throws dev.switchboard.model.GatewayException 400 when a tool result's function name can be found
     *                                                neither on the result nor on its call
     */
    /** What {@link #toUpstream} leaves out of {@code request}: other formats' fields, by name. */
    public static List<String> notCarried(ChatRequest request) {
        return NotCarried.foreign(request, FORMAT, (format, field) -> false);
    }

    public static ObjectNode toUpstream(ChatRequest request) {
        return GeminiUpstreamRequestWriter.write(request, GeminiUpstreamOptions.DEFAULT);
    }

    /** Renders a request for Google's Gemini API, adapted by {@code options}. */
    public static ObjectNode toUpstream(ChatRequest request, GeminiUpstreamOptions options) {
        return GeminiUpstreamRequestWriter.write(request, options);
    }

    /**
     * The request path (with query) for {@code upstreamModel}: {@code /v1beta/models/{m}:generateContent},
     * or {@code /v1beta/models/{m}:streamGenerateContent?alt=sse} when streaming. A leading
     * {@code models/} is accepted; other characters outside {@code [A-Za-z0-9._~-]} are percent-encoded.
     */
    public static String path(String upstreamModel, boolean stream) {
        String m = upstreamModel.startsWith("models/") ? upstreamModel.substring("models/".length()) : upstreamModel;
        return "/v1beta/models/" + encode(m) + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
    }

    /**
     * Reads Google's non-streamed answer. {@code model} is Google's {@code modelVersion}; the engine
     * replaces it with the gateway's.
     *
     * @throws dev.switchboard.model.GatewayException the upstream's in-body error, or a retryable 502 when
     *                                                the answer is malformed
     */
    public static ChatResponse fromUpstream(JsonNode body) {
        return GeminiUpstreamResponseReader.read(body);
    }

    /**
     * The error of a failed upstream call, keeping Google's message; retryable per docs/contracts.md §1.
     * Google's 400 with reason {@code API_KEY_INVALID} is reported as 401 (a key problem: the engine
     * rotates to the next key), and a 400 {@code FAILED_PRECONDITION} (region, billing) as a retryable 403.
     */
    public static GatewayError errorFromUpstream(int status, byte[] body) {
        return GeminiErrors.fromUpstream(status, body);
    }

    private static String encode(String segment) {
        StringBuilder sb = new StringBuilder(segment.length());
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '~' || c == '-')) {
                sb.append(c);
            } else {
                sb.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return sb.toString();
    }
}
