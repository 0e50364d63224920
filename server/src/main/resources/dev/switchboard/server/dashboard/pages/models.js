import { get } from '../api.js';
import { h, field, input, table, empty, badge, section, pageTitle, select } from '../ui.js';
import { money, compact, count } from '../format.js';

const FLAGS = [['supports_reasoning', 'reasoning'], ['supports_vision', 'vision'], ['supports_tools', 'tools'],
  ['supports_caching', 'caching'], ['supports_json', 'JSON']];

export async function render(root) {
  const { data } = await get('/v1/models');
  const search = input({ name: 'search', type: 'search', placeholder: 'id, alias or owner' });
  const flag = select('flag', [['', 'any'], ...FLAGS], '');
  const sort = select('sort', [['id', 'id'], ['input', 'input price'], ['output', 'output price'], ['context', 'context length']], 'id');
  const results = h('div', { 'aria-live': 'polite' });
  const detail = h('div');
  const filters = h('form', { class: 'panel row', role: 'search', onsubmit: (e) => e.preventDefault() },
    field('Search', search), field('Capability', flag), field('Sort by', sort));
  root.append(pageTitle('Models'),
    h('p', { class: 'muted' }, 'Prices are USD per million tokens. Only models your plan can use are listed.'),
    filters, results, detail);

  const update = () => {
    const q = search.value.trim().toLowerCase();
    let rows = data.filter((m) => !q || m.id.toLowerCase().includes(q) || (m.owned_by || '').toLowerCase().includes(q)
      || (m.aliases || []).some((a) => a.toLowerCase().includes(q)) || (m.display_name || '').toLowerCase().includes(q));
    if (flag.value) rows = rows.filter((m) => m[flag.value]);
    const price = (m, k) => Number(m.pricing?.[k] ?? 0);
    rows = [...rows].sort((a, b) => sort.value === 'input' ? price(a, 'input') - price(b, 'input')
      : sort.value === 'output' ? price(a, 'output') - price(b, 'output')
        : sort.value === 'context' ? b.context_length - a.context_length : a.id.localeCompare(b.id));
    if (!rows.length) {
      results.replaceChildren(empty(data.length ? 'No model matches these filters. Clear the search or pick "any".'
        : 'This gateway serves no model you can use. Ask the operator to add one or to change your plan.'));
      return;
    }
    results.replaceChildren(h('p', { class: 'small muted' }, rows.length + ' of ' + data.length + ' models'), table([
      { label: 'Model', value: (m) => h('span', {}, h('button', { type: 'button', class: 'secondary small', onclick: () => show(m, detail) }, m.id),
        m.aliases?.length ? h('div', { class: 'small muted' }, 'aliases: ' + m.aliases.join(', ')) : null) },
      { label: 'Owner', value: (m) => m.owned_by },
      { label: 'Context', num: true, value: (m) => compact(m.context_length) },
      { label: 'Max output', num: true, value: (m) => compact(m.max_output_tokens) },
      { label: 'Input', num: true, value: (m) => money(m.pricing?.input) },
      { label: 'Output', num: true, value: (m) => money(m.pricing?.output) },
      { label: 'Cache read', num: true, value: (m) => money(m.pricing?.cache_read) },
      { label: 'Flags', value: (m) => FLAGS.filter(([k]) => m[k]).map(([, l]) => badge(l, 'yes')) },
    ], rows, 'Models'));
  };
  for (const el of [search, flag, sort]) el.addEventListener('input', update);
  update();
}

async function show(m, where) {
  await section(where, async () => {
    const p = await get('/api/models/' + encodeURIComponent(m.id) + '/allowed-params');
    const pr = m.pricing || {};
    const out = h('section', { class: 'panel', 'aria-labelledby': 'model-detail-h' },
      h('h2', { id: 'model-detail-h' }, m.display_name && m.display_name !== m.id ? m.display_name + ' (' + m.id + ')' : m.id),
      h('dl', { class: 'kv' },
        h('dt', {}, 'Context length'), h('dd', {}, count(m.context_length) + ' tokens'),
        h('dt', {}, 'Max output'), h('dd', {}, count(m.max_output_tokens) + ' tokens'),
        h('dt', {}, 'Reasoning'), h('dd', {}, (m.reasoning?.family || 'none') + (m.reasoning?.efforts?.length ? ' (' + m.reasoning.efforts.join(', ') + ')' : '')),
        h('dt', {}, 'Prices'), h('dd', {}, 'input ' + money(pr.input) + ', output ' + money(pr.output) + ', cache read ' + money(pr.cache_read)
          + ', cache write 5m ' + money(pr.cache_write_5m) + ', 1h ' + money(pr.cache_write_1h) + ' per million tokens'
          + (pr.as_of ? ' (as of ' + pr.as_of + ')' : '')),
        h('dt', {}, 'Allowed parameters'), h('dd', {}, (p.allowed_params || []).map((x) => badge(x))),
        h('dt', {}, 'Refused parameters'), h('dd', {}, (p.refused_params || []).length ? p.refused_params.map((x) => badge(x, 'warn')) : 'none'),
        h('dt', {}, 'Can be saved as defaults'), h('dd', {}, (p.defaultable_params || []).map((x) => badge(x))),
        h('dt', {}, 'Your saved defaults'), h('dd', {}, p.defaults && Object.keys(p.defaults).length ? h('code', {}, JSON.stringify(p.defaults)) : 'none'),
        h('dt', {}, 'Installed skills applied'), h('dd', {}, p.skills?.installed?.length ? p.skills.installed.join(', ') : 'none')),
      h('p', {}, h('a', { href: '#/defaults?model=' + encodeURIComponent(m.id) }, 'Edit your defaults for this model'), ' · ',
        h('a', { href: '#/playground?model=' + encodeURIComponent(m.id) }, 'Try it in the playground')));
    setTimeout(() => out.scrollIntoView({ block: 'nearest' }), 0);
    return out;
  });
}
