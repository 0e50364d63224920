import { get } from '../api.js';
import { h, table, empty, pageTitle, badge, section } from '../ui.js';
import { count } from '../format.js';

export async function render(root) {
  const list = h('div');
  const reload = h('button', { type: 'button', class: 'secondary' }, 'Refresh');
  root.append(pageTitle('Providers'),
    h('p', { class: 'muted' }, 'Attempts, errors and latency per provider, from this gateway instance\'s own counters since it started (the same figures /metrics exports).'),
    h('div', {}, reload), list);
  const load = () => section(list, async () => {
    const { providers } = await get('/admin/v1/providers');
    if (!providers.length) return empty('No provider is configured. Add one under `providers` in the config file.');
    return table([
      { label: 'Provider', value: (p) => p.id },
      { label: 'Type', value: (p) => p.type },
      { label: 'Base URL', value: (p) => h('code', { class: 'small' }, p.base_url) },
      { label: 'Keys', num: true, value: (p) => count(p.keys) },
      { label: 'Attempts', num: true, value: (p) => count(p.attempts) },
      { label: 'Errors', num: true, value: (p) => count(p.errors) },
      { label: 'Error rate', num: true, value: (p) => p.attempts ? (100 * p.errors / p.attempts).toFixed(1) + '%' : '—' },
      { label: 'Health', value: (p) => !p.attempts ? badge('no traffic yet') : p.errors / p.attempts > 0.2 ? badge('failing', 'warn') : badge('healthy', 'yes') },
      { label: 'Mean latency', num: true, value: (p) => p.attempts ? count(p.mean_latency_ms) + ' ms' : '—' },
      { label: 'Max latency', num: true, value: (p) => p.attempts ? count(p.max_latency_ms) + ' ms' : '—' },
      { label: 'Outcomes', value: (p) => Object.entries(p.outcomes).map(([k, v]) => badge(k + ': ' + count(v), k === 'ok' ? 'yes' : 'warn')) },
    ], providers, 'Providers');
  });
  reload.addEventListener('click', load);
  await load();
}
