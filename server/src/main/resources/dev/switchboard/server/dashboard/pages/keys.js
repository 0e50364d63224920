import { api, get } from '../api.js';
import { h, field, input, onSubmit, table, empty, badge, copyButton, section, notice, pageTitle, alertBox } from '../ui.js';
import { time } from '../format.js';

const ENDPOINTS = [
  ['chat_completions', 'Chat completions'], ['messages', 'Messages'], ['count_tokens', 'Count tokens'],
  ['generate_content', 'Generate content'], ['responses', 'Responses'], ['models', 'Models'],
];

export async function render(root) {
  const created = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const form = await createForm(created, () => refresh());
  root.append(pageTitle('API keys'),
    h('p', { class: 'muted' }, 'A key is shown once, when it is created; afterwards only its prefix. Revoking takes effect at once.'),
    created, form, h('h2', {}, 'Your keys'), list);

  async function refresh() {
    await section(list, async () => {
      const { keys } = await get('/v1/keys');
      if (!keys.length) return empty('You have no API keys yet. Create one above to call the gateway from your code.');
      const now = Date.now();
      return table([
        { label: 'Name', value: (k) => k.name },
        { label: 'Prefix', value: (k) => h('code', {}, k.prefix + '…') },
        { label: 'Scope', value: (k) => scope(k) },
        { label: 'Limits', value: (k) => limits(k) },
        { label: 'Created', value: (k) => time(k.created_at) },
        { label: 'Last used', value: (k) => k.last_used_at ? time(k.last_used_at) : h('span', { class: 'muted' }, k.last_used_at === null ? 'never' : '—') },
        { label: 'Status', value: (k) => status(k, now) },
        { label: 'Actions', value: (k) => k.revoked_at ? '' : revokeButton(k, refresh) },
      ], keys, 'Your API keys');
    });
  }
  await refresh();
}

function scope(k) {
  const models = k.models && k.models.length ? k.models.join(', ') : 'all models';
  const eps = k.endpoints && k.endpoints.length ? k.endpoints.join(', ') : 'all endpoints';
  return h('span', { class: 'small' }, models, h('br'), eps);
}

function limits(k) {
  const parts = [];
  if (k.rpm) parts.push(k.rpm + ' req/min');
  if (k.tpm) parts.push(k.tpm + ' tokens/min');
  if (k.daily_tokens) parts.push(k.daily_tokens + ' tokens/day');
  if (k.max_parallel) parts.push(k.max_parallel + ' parallel');
  if (k.budget_usd) parts.push('budget $' + k.budget_usd + (k.budget_period ? ' / ' + k.budget_period : ''));
  if (k.expires_at) parts.push('expires ' + time(k.expires_at));
  return parts.length ? h('span', { class: 'small' }, parts.join(' · ')) : h('span', { class: 'muted small' }, 'none');
}

function status(k, now) {
  if (k.revoked_at) return badge('revoked ' + time(k.revoked_at), 'warn');
  if (k.expires_at && new Date(k.expires_at).getTime() <= now) return badge('expired', 'warn');
  return badge('active', 'yes');
}

function revokeButton(k, refresh) {
  const b = h('button', { type: 'button', class: 'danger small', 'aria-label': 'Revoke key ' + k.name + ' (' + k.prefix + ')' }, 'Revoke');
  b.addEventListener('click', async () => {
    if (!confirm('Revoke the key "' + k.name + '" (' + k.prefix + '…)? Requests with it fail from now on.')) return;
    b.disabled = true;
    try {
      await api('DELETE', '/v1/keys/' + encodeURIComponent(k.id));
      await refresh();
    } catch (e) {
      b.disabled = false;
      b.after(alertBox(e));
    }
  });
  return b;
}

async function createForm(created, refresh) {
  let models = [];
  try { models = (await get('/v1/models')).data.map((m) => m.id); } catch { models = []; }
  const name = input({ name: 'name', maxlength: 100, placeholder: 'e.g. laptop, ci' });
  const modelSelect = h('select', { name: 'models', multiple: true, size: Math.min(6, Math.max(3, models.length)) },
    models.map((m) => h('option', { value: m }, m)));
  const endpoints = h('fieldset', {}, h('legend', {}, 'Endpoints (none checked: all)'),
    ENDPOINTS.map(([v, label]) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'endpoint', value: v }), label, ' ')));
  const rpm = input({ name: 'rpm', type: 'number', min: 1, step: 1, inputmode: 'numeric' });
  const daily = input({ name: 'daily_tokens', type: 'number', min: 1, step: 1, inputmode: 'numeric' });
  const expires = input({ name: 'expires_at', type: 'datetime-local' });
  const submit = h('button', { type: 'submit' }, 'Create key');
  const form = h('form', { class: 'panel stack', novalidate: true, 'aria-labelledby': 'create-key-h' },
    h('h2', { id: 'create-key-h' }, 'Create a key'),
    h('div', { class: 'row' }, field('Name', name), field('Expires', expires, 'Optional; in your time zone.')),
    field('Models (none selected: all)', modelSelect, 'Hold Ctrl or Cmd to pick several.'),
    h('div', { class: 'field', dataset: { field: 'endpoints' } }, endpoints, h('span', { class: 'error', role: 'alert', hidden: true })),
    h('div', { class: 'row' }, field('Requests per minute', rpm, 'Optional.'), field('Tokens per day', daily, 'Optional.')),
    h('div', {}, submit));
  onSubmit(form, submit, async () => {
    const body = {};
    if (name.value.trim()) body.name = name.value.trim();
    const pickedModels = [...modelSelect.selectedOptions].map((o) => o.value);
    if (pickedModels.length) body.models = pickedModels;
    const pickedEndpoints = [...form.querySelectorAll('input[name=endpoint]:checked')].map((c) => c.value);
    if (pickedEndpoints.length) body.endpoints = pickedEndpoints;
    if (rpm.value) body.rpm = Number(rpm.value);
    if (daily.value) body.daily_tokens = Number(daily.value);
    if (expires.value) body.expires_at = new Date(expires.value).toISOString();
    const k = await api('POST', '/v1/keys', body);
    showSecret(created, k);
    form.reset();
    await refresh();
  });
  return form;
}

/** The one time a key's secret is on screen; "Done" removes it from the page for good. */
function showSecret(where, k) {
  const code = h('code', { class: 'key-secret' }, k.key);
  const done = h('button', { type: 'button', class: 'secondary small' }, 'Done, I stored it');
  const box = notice('ok',
    h('p', {}, h('strong', {}, 'Key "' + k.name + '" created. '), 'Copy it now: it is not shown again.'),
    h('div', { class: 'secret' }, code, copyButton(k.key, 'Copy key'), done),
    h('p', { class: 'small' }, 'Try it: ', h('code', {}, 'curl ' + location.origin + '/v1/models -H "Authorization: Bearer ' + k.prefix + '…"')));
  done.addEventListener('click', () => box.remove());
  where.replaceChildren(box);
  done.focus();
}
