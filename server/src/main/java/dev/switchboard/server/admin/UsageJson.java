package dev.switchboard.server.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.Usd;
import dev.switchboard.engine.billing.UsageRecord;
import dev.switchboard.engine.billing.UsageTotal;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Locale;

/** The JSON shapes of usage records and totals, shared by the admin and self-service views and the CLI twins. */
public final class UsageJson {
    private UsageJson() {
    }

    public static ObjectNode record(UsageRecord r) {
        ObjectNode o = Json.object();
        o.put("id", r.requestId());
        o.put("user_id", r.userId());
        o.put("key_id", r.keyId());
        o.put("endpoint", r.endpoint());
        o.put("requested_model", r.requestedModel());
        o.put("model", r.model());
        o.put("provider", r.provider());
        o.put("streamed", r.streamed());
        Usage u = r.usage();
        o.put("input_tokens", u.inputTokens());
        o.put("output_tokens", u.outputTokens());
        o.put("reasoning_tokens", u.reasoningTokens());
        o.put("cache_read_tokens", u.cacheReadTokens());
        o.put("cache_write_5m_tokens", u.cacheWrite5mTokens());
        o.put("cache_write_1h_tokens", u.cacheWrite1hTokens());
        o.put("cost_usd", Usd.format(r.costNanos()));
        o.put("charged_usd", Usd.format(r.chargedNanos()));
        r.plan().ifPresentOrElse(p -> o.put("plan", p), () -> o.putNull("plan"));
        o.put("provenance", u.provenance().name().toLowerCase(Locale.ROOT));
        o.put("status", r.status().toLowerCase(Locale.ROOT));
        o.put("latency_ms", r.latency().toMillis());
        o.put("created_at", r.createdAt().toString());
        return o;
    }

    public static ArrayNode records(List<UsageRecord> records) {
        ArrayNode a = Json.array();
        records.forEach(r -> a.add(record(r)));
        return a;
    }

    public static ObjectNode total(UsageTotal t) {
        ObjectNode o = Json.object();
        o.put("group", t.group());
        o.put("requests", t.requests());
        o.put("input_tokens", t.inputTokens());
        o.put("output_tokens", t.outputTokens());
        o.put("reasoning_tokens", t.reasoningTokens());
        o.put("cache_read_tokens", t.cacheReadTokens());
        o.put("cache_write_tokens", t.cacheWriteTokens());
        o.put("cost_usd", Usd.format(t.costNanos()));
        o.put("charged_usd", Usd.format(t.chargedNanos()));
        return o;
    }

    public static ArrayNode totals(List<UsageTotal> totals) {
        ArrayNode a = Json.array();
        totals.forEach(t -> a.add(total(t)));
        return a;
    }
}
