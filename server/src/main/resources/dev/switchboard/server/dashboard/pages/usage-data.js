// The usage data layer shared by the overview, the usage page and the operators' usage page: one place that reads
// GET /v1/usage and GET /admin/v1/usage and turns their answers into rows and per-day / per-model totals.
import { get, query } from '../api.js';
import { toNanos, nanosToDecimal } from '../format.js';

/** Midnight today in the browser's zone, minus `days` days, as an ISO instant (the API filters are instants). */
export function daysAgo(days) {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - days);
  return d.toISOString();
}

/** The most rows one usage call answers (the gateway's limit). */
export const MAX_ROWS = 1000;

/**
 * {raw, rows, days, models, total} from the usage route (`admin` for every user's): GET /v1/usage answers
 * {data: [record], daily, total}; rows are normalized by `record`. Rethrows the API's errors.
 */
export async function usage(filters, admin = false) {
  const r = await get((admin ? '/admin/v1/usage' : '/v1/usage') + query(filters));
  const rows = (r.data || []).map(record);
  return { raw: r, rows, days: byDay(rows), models: byModel(rows), total: total(rows) };
}

/** The answer of GET /v1/generation or /v1/credits, unwrapped from its {data: ...} envelope. */
export function unwrap(answer) {
  return answer && answer.data && !Array.isArray(answer.data) ? answer.data : answer;
}

/**
 * One usage record in the dashboard's shape: token counts at the top level (the API may also nest them under
 * `usage`), `format` from the record's endpoint.
 */
export function record(r) {
  const u = r.usage || r;
  return {
    ...r,
    format: r.format || r.endpoint || '',
    input_tokens: u.input_tokens ?? 0, output_tokens: u.output_tokens ?? 0, reasoning_tokens: u.reasoning_tokens ?? 0,
    cache_read_tokens: u.cache_read_tokens ?? 0, cache_write_5m_tokens: u.cache_write_5m_tokens ?? 0,
    cache_write_1h_tokens: u.cache_write_1h_tokens ?? 0, skills: r.skills || [],
  };
}

export function tokensOf(row) {
  return (row.input_tokens || 0) + (row.output_tokens || 0);
}

/** Per-day totals (browser's zone) from rows: [{day: 'YYYY-MM-DD', requests, tokens, cost_nanos}]. */
export function byDay(rows) {
  const m = new Map();
  for (const row of rows) {
    const d = new Date(row.created_at);
    const key = d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0');
    const e = m.get(key) || { day: key, requests: 0, tokens: 0, cost_nanos: 0n };
    e.requests += 1;
    e.tokens += tokensOf(row);
    e.cost_nanos += toNanos(row.cost_usd);
    m.set(key, e);
  }
  return [...m.values()].sort((a, b) => a.day.localeCompare(b.day));
}

export function byModel(rows) {
  const m = new Map();
  for (const row of rows) {
    const key = row.model || row.requested_model || 'unknown';
    const e = m.get(key) || { model: key, requests: 0, tokens: 0, cost_nanos: 0n };
    e.requests += 1;
    e.tokens += tokensOf(row);
    e.cost_nanos += toNanos(row.cost_usd);
    m.set(key, e);
  }
  return [...m.values()].sort((a, b) => (b.cost_nanos > a.cost_nanos ? 1 : b.cost_nanos < a.cost_nanos ? -1 : b.requests - a.requests));
}

export function total(rows) {
  let cost = 0n;
  let tokens = 0;
  for (const row of rows) { cost += toNanos(row.cost_usd); tokens += tokensOf(row); }
  return { requests: rows.length, tokens, cost_nanos: cost, cost_usd: nanosToDecimal(cost) };
}

/** The last `n` days (oldest first) with zero-filled totals, for charts. */
export function lastDays(days, n) {
  const byKey = new Map(days.map((d) => [d.day, d]));
  const out = [];
  for (let i = n - 1; i >= 0; i--) {
    const d = new Date();
    d.setDate(d.getDate() - i);
    const key = d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0');
    out.push(byKey.get(key) || { day: key, requests: 0, tokens: 0, cost_nanos: 0n });
  }
  return out;
}

/** CSV text (RFC 4180 quoting) of usage rows. */
export function csv(rows) {
  const cols = ['id', 'created_at', 'format', 'requested_model', 'model', 'provider', 'input_tokens', 'output_tokens',
    'reasoning_tokens', 'cache_read_tokens', 'cache_write_5m_tokens', 'cache_write_1h_tokens', 'cost_usd', 'charged_usd',
    'provenance', 'status', 'latency_ms', 'skills', 'user_id', 'key_id'];
  const cell = (v) => {
    const s = v === undefined || v === null ? '' : Array.isArray(v) ? v.join(' ') : String(v);
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  };
  const lines = [cols.join(',')];
  for (const r of rows) lines.push(cols.map((c) => cell(r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}
