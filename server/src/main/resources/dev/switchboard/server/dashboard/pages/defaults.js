import { api, get } from '../api.js';
import { h, field, input, onSubmit, table, empty, section, notice, pageTitle, select, alertBox } from '../ui.js';
import { time } from '../format.js';

/** How each savable parameter is edited: number, integer, list (comma-separated), effort, or JSON. */
const KINDS = {
  temperature: ['number', 'Sampling temperature, e.g. 0.7.'], top_p: ['number', 'Nucleus sampling, 0 to 1.'],
  top_k: ['integer', 'Only the k most likely tokens.'], presence_penalty: ['number', '-2 to 2.'],
  frequency_penalty: ['number', '-2 to 2.'], seed: ['integer', 'For repeatable sampling where supported.'],
  max_tokens: ['integer', 'Output limit.'], max_completion_tokens: ['integer', 'Output limit (OpenAI name).'],
  stop: ['list', 'Up to 4 stop strings, separated by commas.'],
  reasoning_effort: ['effort', 'How hard a reasoning model thinks.'],
  thinking: ['json', 'e.g. {"type": "enabled", "budget_tokens": 2000}.'], thinking_budget: ['integer', 'Reasoning token budget.'],
  response_format: ['json', 'e.g. {"type": "json_object"}.'], transforms: ['list', 'e.g. middle-out.'],
};
const EFFORTS = ['', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

export async function render(root, ctx) {
  const { data } = await get('/v1/models');
  const models = data.map((m) => m.id);
  const saved = h('div');
  const editor = h('div');
  const picked = ctx.query.get('model') && models.includes(ctx.query.get('model')) ? ctx.query.get('model') : models[0];
  const modelSelect = select('model', models, picked);
  root.append(pageTitle('Saved defaults'),
    h('p', { class: 'muted' }, 'Defaults fill the parameters your requests leave out, for one model. A request with "ignore_defaults": true skips them.'),
    h('div', { class: 'panel' }, field('Model', modelSelect)), editor, h('h2', {}, 'Saved for your models'), saved);
  if (!models.length) {
    editor.replaceChildren(empty('No model is available to you, so there is nothing to set defaults for.'));
    return;
  }
  const refreshSaved = () => section(saved, async () => {
    const { defaults } = await get('/v1/defaults');
    if (!defaults.length) return empty('No defaults saved yet. Pick a model above, fill a field and save.');
    return table([
      { label: 'Model', value: (d) => h('a', { href: '#/defaults?model=' + encodeURIComponent(d.model) }, d.model) },
      { label: 'Defaults', value: (d) => h('code', {}, JSON.stringify(d.defaults)) },
      { label: 'Updated', value: (d) => time(d.updated_at) },
    ], defaults, 'Saved defaults');
  });
  const load = () => section(editor, () => editorFor(modelSelect.value, refreshSaved));
  modelSelect.addEventListener('change', load);
  await Promise.all([load(), refreshSaved()]);
}

async function editorFor(model, refreshSaved) {
  const allowed = await get('/api/models/' + encodeURIComponent(model) + '/allowed-params');
  let current = {};
  try {
    current = (await get('/v1/defaults/' + encodeURIComponent(model))).defaults;
  } catch (e) {
    if (e.status !== 404) throw e;
  }
  const names = allowed.defaultable_params || [];
  const inputs = {};
  const fields = names.map((n) => {
    const [kind, hint] = KINDS[n] || ['json', ''];
    const v = current[n];
    let el;
    if (kind === 'effort') el = select(n, EFFORTS.map((x) => [x, x || '(not set)']), v ?? '');
    else if (kind === 'json') el = h('textarea', { name: n, rows: 2, spellcheck: 'false' }, v === undefined ? '' : JSON.stringify(v));
    else if (kind === 'list') el = input({ name: n, value: v === undefined ? '' : [].concat(v).join(', ') });
    else el = input({ name: n, type: 'text', inputmode: kind === 'integer' ? 'numeric' : 'decimal', value: v ?? '' });
    inputs[n] = [kind, el];
    return field(n, el, hint);
  });
  const save = h('button', { type: 'submit' }, 'Save defaults');
  const clear = h('button', { type: 'button', class: 'danger' }, 'Remove all');
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'panel stack', novalidate: true, 'aria-labelledby': 'defaults-h' },
    h('h2', { id: 'defaults-h' }, 'Defaults for ' + allowed.id),
    names.length ? h('div', { class: 'grid' }, fields) : empty('This model takes no parameter that can be saved.'),
    h('div', { class: 'row' }, save, clear), status);
  onSubmit(form, save, async () => {
    status.replaceChildren();
    const body = {};
    for (const [n, [kind, el]] of Object.entries(inputs)) {
      const raw = el.value.trim();
      if (raw === '') continue;
      if (kind === 'number' || kind === 'integer') {
        const num = Number(raw);
        body[n] = Number.isFinite(num) ? num : raw; // the gateway names the field when it is not a number
      } else if (kind === 'list') {
        body[n] = raw.split(',').map((s) => s.trim()).filter(Boolean);
      } else if (kind === 'json') {
        try { body[n] = JSON.parse(raw); } catch { throw { message: n + ': not valid JSON', param: n }; }
      } else body[n] = raw;
    }
    await api('PUT', '/v1/defaults/' + encodeURIComponent(allowed.id), body);
    status.replaceChildren(notice('ok', 'Saved. Requests to ' + allowed.id + ' without these parameters now get them.'));
    await refreshSaved();
  });
  clear.addEventListener('click', async () => {
    clear.disabled = true;
    try {
      await api('DELETE', '/v1/defaults/' + encodeURIComponent(allowed.id));
      Object.values(inputs).forEach(([, el]) => { el.value = ''; });
      status.replaceChildren(notice('ok', 'Removed.'));
      await refreshSaved();
    } catch (err) {
      status.replaceChildren(alertBox(err));
    } finally {
      clear.disabled = false;
    }
  });
  return form;
}
