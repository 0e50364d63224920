import { api, get } from '../api.js';
import { h, field, input, select, onSubmit, showError, clearErrors, notice, pageTitle, alertBox } from '../ui.js';

const EFFORTS = ['', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

export async function render(root, ctx) {
  const id = ctx.params.id;
  const skill = id ? await get('/v1/skills/' + encodeURIComponent(id)) : null;
  const body = skill?.body || { system_prompt: '', rules: [], hints: {} };
  const status = h('div', { 'aria-live': 'polite' });

  const name = input({ name: 'name', value: skill?.name || '', maxlength: 100, required: true });
  const description = h('textarea', { name: 'description', rows: 2 }, skill?.description || '');
  const tags = input({ name: 'tags', value: (skill?.tags || []).join(', '), placeholder: 'e.g. code, review' });
  const visibility = select('visibility', [['private', 'private (only you)'], ['unlisted', 'unlisted (anyone with the id)'], ['public', 'public (in the catalog)']], skill?.visibility || 'private');
  const system = h('textarea', { name: 'body.system_prompt', rows: 5 }, body.system_prompt || '');
  const hintInputs = {
    temperature: input({ name: 'body.hints.temperature', inputmode: 'decimal', value: body.hints?.temperature ?? '' }),
    top_p: input({ name: 'body.hints.top_p', inputmode: 'decimal', value: body.hints?.top_p ?? '' }),
    max_tokens: input({ name: 'body.hints.max_tokens', inputmode: 'numeric', value: body.hints?.max_tokens ?? '' }),
    reasoning_effort: select('body.hints.reasoning_effort', EFFORTS.map((e) => [e, e || '(not set)']), body.hints?.reasoning_effort ?? ''),
  };
  const rules = h('ol', { class: 'stack', 'aria-label': 'Rules, run in order' });
  (body.rules || []).forEach((r) => rules.append(ruleEditor(r)));
  const addRule = h('button', { type: 'button', class: 'secondary' }, '+ Add a rule');
  addRule.addEventListener('click', () => {
    const li = ruleEditor({ type: 'replace', find: '', replace: '', regex: false, target: 'last_user' });
    rules.append(li);
    renumber(rules);
    li.querySelector('select').focus();
  });
  renumber(rules);

  const save = h('button', { type: 'submit' }, skill ? 'Save changes' : 'Create skill');
  const del = skill ? h('button', { type: 'button', class: 'danger' }, 'Delete') : null;
  const form = h('form', { class: 'panel stack', novalidate: true },
    h('div', { class: 'row' }, field('Name', name), field('Visibility', visibility), field('Tags', tags, 'Separated by commas.')),
    field('Description', description),
    field('System prompt', system, 'Comes before the caller\'s own system prompt.'),
    h('fieldset', {}, h('legend', {}, 'Rules (run in order over the caller\'s text)'), rules, addRule),
    h('fieldset', {}, h('legend', {}, 'Hints (fill parameters the caller did not set)'),
      h('div', { class: 'row' }, field('temperature', hintInputs.temperature), field('top_p', hintInputs.top_p),
        field('max_tokens', hintInputs.max_tokens), field('reasoning_effort', hintInputs.reasoning_effort))),
    h('div', { class: 'row' }, save, del), status);

  const collect = () => {
    const hints = {};
    for (const [k, el] of Object.entries(hintInputs)) {
      const v = el.value.trim();
      if (v === '') continue;
      hints[k] = k === 'reasoning_effort' ? v : (Number.isFinite(Number(v)) ? Number(v) : v);
    }
    return {
      name: name.value.trim(), description: description.value.trim(),
      tags: tags.value.split(',').map((t) => t.trim()).filter(Boolean), visibility: visibility.value,
      body: { system_prompt: system.value, rules: [...rules.children].map(readRule), hints },
    };
  };

  onSubmit(form, save, async () => {
    status.replaceChildren();
    const saved = skill ? await api('PUT', '/v1/skills/' + encodeURIComponent(skill.id), collect())
      : await api('POST', '/v1/skills', collect());
    if (!skill) { ctx.navigate('#/skills/edit/' + encodeURIComponent(saved.id)); return; }
    status.replaceChildren(notice('ok', 'Saved.'));
  });
  if (del) {
    del.addEventListener('click', async () => {
      if (!confirm('Delete the skill "' + skill.name + '"? This cannot be undone.')) return;
      try {
        await api('DELETE', '/v1/skills/' + encodeURIComponent(skill.id));
        ctx.navigate('#/skills?tab=mine');
      } catch (err) {
        status.replaceChildren(alertBox(err));
      }
    });
  }

  // The preview: what a sample message becomes under the draft as it is now (nothing is saved).
  const sample = h('textarea', { name: 'message', rows: 2 }, 'pls review this code');
  const sampleSystem = input({ name: 'system', placeholder: 'Optional: your own system prompt' });
  const previewBtn = h('button', { type: 'button' }, 'Preview');
  const previewOut = h('div', { 'aria-live': 'polite', 'data-testid': 'preview' });
  const preview = h('section', { class: 'panel stack', 'aria-labelledby': 'preview-h' },
    h('h2', { id: 'preview-h' }, 'Preview'),
    field('Sample message', sample), field('Sample system prompt', sampleSystem), h('div', {}, previewBtn), previewOut);
  previewBtn.addEventListener('click', async () => {
    clearErrors(form);
    previewBtn.disabled = true;
    try {
      const r = await api('POST', '/v1/skills/preview', { body: collect().body, message: sample.value,
        ...(sampleSystem.value.trim() ? { system: sampleSystem.value.trim() } : {}) });
      previewOut.replaceChildren(
        h('h3', {}, 'System text the model gets'), ...(r.system.length ? r.system.map((s) => h('pre', {}, s)) : [h('p', { class: 'muted' }, 'none')]),
        h('h3', {}, 'Messages'), ...r.messages.map((m) => h('pre', {}, m.role + ': ' + m.content)),
        h('h3', {}, 'Hints'), h('pre', {}, JSON.stringify(r.hints)));
    } catch (err) {
      previewOut.replaceChildren();
      if (err.param && err.param.startsWith('body')) showError(form, err); else previewOut.replaceChildren(alertBox(err));
    } finally {
      previewBtn.disabled = false;
    }
  });

  root.append(pageTitle(skill ? 'Edit skill' : 'New skill'),
    skill?.forked_from ? h('p', { class: 'muted' }, 'Forked from ' + skill.forked_from + '.') : null,
    skill ? h('p', { class: 'small muted' }, 'Id: ', h('code', {}, skill.id)) : null,
    form, preview, h('p', {}, h('a', { href: '#/skills?tab=mine' }, 'Back to my skills')));
  name.focus();
}

function ruleEditor(r) {
  const type = select('type', [['replace', 'replace'], ['prepend', 'prepend'], ['append', 'append']], r.type);
  const target = select('target', [['last_user', 'last user message'], ['all_user', 'every user message']], r.target || 'last_user');
  const find = input({ name: 'find', value: r.find ?? '' });
  const replace = input({ name: 'replace', value: r.replace ?? '' });
  const regex = h('input', { type: 'checkbox', name: 'regex', checked: !!r.regex });
  const text = input({ name: 'text', value: r.text ?? '' });
  const remove = h('button', { type: 'button', class: 'danger small' }, 'Remove');
  const up = h('button', { type: 'button', class: 'secondary small' }, 'Move up');
  const li = h('li', { class: 'rule' });
  const fields = {
    type: field('Type', type), target: field('Applies to', target), find: field('Find', find), replace: field('Replace with', replace),
    regex: h('label', { class: 'check' }, regex, 'Regular expression (RE2 syntax)'), text: field('Text', text),
  };
  const sync = () => {
    const isReplace = type.value === 'replace';
    fields.find.hidden = !isReplace; fields.replace.hidden = !isReplace; fields.regex.hidden = !isReplace; fields.text.hidden = isReplace;
  };
  type.addEventListener('change', sync);
  remove.addEventListener('click', () => { const list = li.parentElement; li.remove(); renumber(list); });
  up.addEventListener('click', () => { if (li.previousElementSibling) { li.parentElement.insertBefore(li, li.previousElementSibling); renumber(li.parentElement); up.focus(); } });
  li.append(h('div', { class: 'row' }, fields.type, fields.target, fields.find, fields.replace, fields.text), fields.regex,
    h('div', { class: 'row' }, up, remove));
  li.readRule = () => type.value === 'replace'
    ? { type: 'replace', find: find.value, replace: replace.value, regex: regex.checked, target: target.value }
    : { type: type.value, text: text.value, target: target.value };
  sync();
  return li;
}

function readRule(li) { return li.readRule(); }

/** Field names carry the rule's index, so an error naming body.rules[2].find lands next to that input. */
function renumber(list) {
  [...list.children].forEach((li, i) => {
    li.querySelectorAll('.field').forEach((f) => {
      const el = f.querySelector('input, select, textarea');
      f.dataset.field = 'body.rules[' + i + '].' + el.name;
    });
    li.setAttribute('aria-label', 'Rule ' + (i + 1));
  });
}
