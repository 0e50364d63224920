import { get, query } from '../api.js';
import { h, field, input, select, section, pageTitle, unavailable, table, empty, badge } from '../ui.js';
import { money, time, count } from '../format.js';
import { usage, daysAgo, csv, total, unwrap, record, MAX_ROWS } from './usage-data.js';

/** The user's requests (GET /v1/usage), filterable, with CSV export and one request's detail (GET /v1/generation). */
export async function render(root, ctx, admin = false) {
  const q = ctx.query;
  const from = input({ name: 'from', type: 'date', value: q.get('from') || daysAgo(6).slice(0, 10) });
  const to = input({ name: 'to', type: 'date', value: q.get('to') || '' });
  const model = input({ name: 'model', value: q.get('model') || '', placeholder: 'any' });
  const user = admin ? input({ name: 'user', value: q.get('user') || '', placeholder: 'any user id' }) : null;
  const form = h('form', { class: 'panel row', role: 'search' }, field('From', from), field('To', to, 'Inclusive.'), field('Model', model),
    user ? field('User', user) : null, h('button', { type: 'submit' }, 'Filter'));
  const base = admin ? '#/admin/usage' : '#/usage';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    ctx.navigate(base + query({ from: from.value, to: to.value, model: model.value.trim(), user: user?.value.trim() }));
  });
  const list = h('div');
  const detail = h('div', { 'aria-live': 'polite' });
  root.append(pageTitle(admin ? 'All usage' : 'Usage'), form, detail, list);
  const filters = {
    from: from.value ? new Date(from.value + 'T00:00:00').toISOString() : undefined,
    to: to.value ? new Date(new Date(to.value + 'T00:00:00').getTime() + 86400000).toISOString() : undefined,
    model: model.value.trim() || undefined, user: user?.value.trim() || undefined, limit: MAX_ROWS,
  };
  await section(list, async () => {
    let data;
    try {
      data = await usage(filters, admin);
    } catch (e) {
      if (e.missingRoute) return unavailable(admin ? 'Usage of every user (GET /admin/v1/usage)' : 'Your usage (GET /v1/usage)', e);
      throw e;
    }
    if (!data.rows.length) return empty('No requests in this period. Widen the dates, or send a request and reload.');
    const t = data.raw.total ? { requests: data.raw.total.requests, tokens: (data.raw.total.input_tokens || 0) + (data.raw.total.output_tokens || 0),
      cost_usd: data.raw.total.cost_usd } : total(data.rows);
    const more = data.raw.total && data.raw.total.requests > data.rows.length
      ? h('p', { class: 'small muted' }, 'The table shows the newest ' + data.rows.length + ' of ' + count(data.raw.total.requests) + ' requests; narrow the dates to see the rest.') : null;
    const download = h('button', { type: 'button', class: 'secondary' }, 'Export CSV');
    download.addEventListener('click', () => {
      const url = URL.createObjectURL(new Blob([csv(data.rows)], { type: 'text/csv' }));
      const a = h('a', { href: url, download: 'switchboard-usage.csv' });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    });
    const groups = admin ? adminTotals(data.rows) : null;
    return [
      h('div', { class: 'row' }, h('p', {}, count(t.requests) + ' requests · ' + count(t.tokens) + ' tokens · ', h('strong', { 'data-testid': 'usage-total' }, money(t.cost_usd))), download),
      more,
      groups,
      table([
        { label: 'Time', value: (r) => time(r.created_at) },
        ...(admin ? [{ label: 'User', value: (r) => r.user_id || '' }] : []),
        { label: 'Format', value: (r) => r.format || '' },
        { label: 'Model asked → answered', value: (r) => (r.requested_model || '') + (r.model && r.model !== r.requested_model ? ' → ' + r.model : '') },
        { label: 'Provider', value: (r) => r.provider || '' },
        { label: 'Tokens in / out', num: true, value: (r) => count(r.input_tokens) + ' / ' + count(r.output_tokens) },
        { label: 'Cost', num: true, value: (r) => money(r.cost_usd) },
        { label: 'Provenance', value: (r) => r.provenance ? badge(r.provenance, r.provenance === 'estimated' ? 'warn' : null) : '' },
        { label: 'Latency', num: true, value: (r) => r.latency_ms !== undefined ? count(r.latency_ms) + ' ms' : '' },
        { label: 'Skills', value: (r) => r.skills.join(', ') },
        { label: 'Detail', value: (r) => h('button', { type: 'button', class: 'secondary small', onclick: () => showDetail(r.id, detail, admin, r) }, 'Show') },
      ], data.rows, 'Requests'),
    ];
  });
}

function adminTotals(rows) {
  const by = (key) => {
    const m = new Map();
    for (const r of rows) {
      const k = key(r);
      const e = m.get(k) || { key: k, rows: [] };
      e.rows.push(r);
      m.set(k, e);
    }
    return [...m.values()].map((e) => ({ key: e.key, ...total(e.rows) }));
  };
  const t = (label, groups) => h('details', { class: 'panel' }, h('summary', {}, 'Totals per ' + label), table([
    { label, value: (g) => g.key },
    { label: 'Requests', num: true, value: (g) => count(g.requests) },
    { label: 'Tokens', num: true, value: (g) => count(g.tokens) },
    { label: 'Cost', num: true, value: (g) => money(g.cost_usd) },
  ], groups, 'Totals per ' + label));
  return [t('user', by((r) => r.user_id || 'unknown')), t('model', by((r) => r.model || r.requested_model || 'unknown')),
    t('day', by((r) => (r.created_at || '').slice(0, 10)))];
}

async function showDetail(id, where, admin, row) {
  await section(where, async () => {
    const g = admin ? row : record(unwrap(await get('/v1/generation?id=' + encodeURIComponent(id))));
    const u = g;
    return h('section', { class: 'panel', 'aria-labelledby': 'gen-h' }, h('h2', { id: 'gen-h' }, 'Request ' + g.id),
      h('dl', { class: 'kv' },
        ...[['Time', time(g.created_at)], ['Format', g.format], ['Streamed', g.streamed ? 'yes' : 'no'], ['Model asked', g.requested_model],
          ['Model answered', g.model], ['Provider', g.provider], ['Status', g.status], ['Input tokens', count(u.input_tokens ?? 0)],
          ['Output tokens', count(u.output_tokens ?? 0)], ['Reasoning tokens', count(u.reasoning_tokens ?? 0)],
          ['Cache read tokens', count(u.cache_read_tokens ?? 0)], ['Cache write tokens (5m / 1h)', count(u.cache_write_5m_tokens ?? 0) + ' / ' + count(u.cache_write_1h_tokens ?? 0)],
          ['Cost', money(g.cost_usd)], ['Charged to the balance', g.charged_usd !== undefined ? money(g.charged_usd) : '—'],
          ['Plan', g.plan || '—'], ['Provenance', g.provenance], ['Latency', (g.latency_ms ?? '') + ' ms'], ['Skills', g.skills.join(', ') || 'none'], ['Key', g.key_id || '—']]
          .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v ?? '')])));
  });
  where.scrollIntoView({ block: 'nearest' });
}
