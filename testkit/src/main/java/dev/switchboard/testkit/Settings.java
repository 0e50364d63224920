package dev.switchboard.testkit;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a test configured on a running fake: accepted keys, per-key statuses, scripted responders, the
 * advertised model list and the tool calls it prefers. Safe to change while requests are being served.
 */
final class Settings {

    static final List<String> DEFAULT_MODELS = List.of("fake-model");

    private final Set<String> acceptedKeys = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> keyStatuses = new ConcurrentHashMap<>();
    private final Map<String, Responder> scripts = new ConcurrentHashMap<>();
    private volatile List<String> models = DEFAULT_MODELS;
    private volatile List<FakeUpstream.PreferredCall> preferredCalls = List.of();

    void acceptKeys(List<String> keys) {
        acceptedKeys.addAll(keys);
    }

    void keyStatus(String key, int status) {
        keyStatuses.put(key, status);
    }

    void script(String model, Responder responder) {
        scripts.put(model, responder);
    }

    void models(List<String> ids) {
        models = List.copyOf(ids);
    }

    List<String> models() {
        return models;
    }

    void preferredCalls(List<FakeUpstream.PreferredCall> calls) {
        preferredCalls = List.copyOf(calls);
    }

    List<FakeUpstream.PreferredCall> preferredCalls() {
        return preferredCalls;
    }

    Optional<Responder> script(String model) {
        return Optional.ofNullable(scripts.get(model));
    }

    /**
     * The status a key earns before anything else happens: its scripted status if it has one; 401 when
     * keys are required and this one is missing or not accepted; empty when the request may proceed.
     */
    Optional<Integer> keyVerdict(Optional<String> key) {
        Optional<Integer> scripted = key.map(keyStatuses::get);
        if (scripted.isPresent()) {
            return scripted;
        }
        if (!acceptedKeys.isEmpty() && !key.map(acceptedKeys::contains).orElse(false)) {
            return Optional.of(401);
        }
        return Optional.empty();
    }
}
