import { api, get, query } from '../api.js';
import { h, field, input, onSubmit, table, empty, section, notice, pageTitle, alertBox, badge } from '../ui.js';

const KINDS = [['skills', 'Skills'], ['mcp-servers', 'MCP servers'], ['marketplaces', 'Marketplaces'], ['characters', 'Characters'], ['plugins', 'Plugins']];
const LISTS = { skills: 'skills', 'mcp-servers': 'mcp_servers', marketplaces: 'marketplaces', characters: 'characters', plugins: 'plugins' };

export async function render(root, ctx) {
  const kind = LISTS[ctx.query.get('kind')] ? ctx.query.get('kind') : 'skills';
  const list = h('div');
  const editor = h('div');
  root.append(pageTitle('Catalog curation'),
    h('p', { class: 'muted' }, 'Official entries and moderation. Entries written here are the operator\'s; deleting removes any entry, users\' skills included.'),
    h('nav', { class: 'tabs', 'aria-label': 'Kinds' }, KINDS.map(([k, label]) => h('a', { href: '#/admin/catalog?kind=' + k, 'aria-current': k === kind ? 'page' : null }, label))),
    editor, list);
  const refresh = () => section(list, async () => {
    const r = await get('/admin/v1/extend/' + kind + query({ limit: 100 }));
    const items = r[LISTS[kind]] || r.items || [];
    if (!items.length) return empty('No ' + kind + ' yet. Write one with the form above, or import a seed file (switchboard extend import FILE).');
    return table([
      { label: 'Name', value: (it) => h('span', {}, it.name, ' ', it.official ? badge('official', 'official') : null, it.verified ? badge('verified', 'yes') : null) },
      { label: 'Id', value: (it) => h('code', { class: 'small' }, it.id) },
      { label: 'Owner', value: (it) => it.creator_username || it.creator || '' },
      { label: 'Visibility', value: (it) => it.visibility || 'public' },
      { label: 'Actions', value: (it) => h('div', { class: 'row' },
        h('button', { type: 'button', class: 'secondary small', onclick: () => edit(kind, it, editor, refresh) }, 'Edit'),
        deleteButton(kind, it, refresh)) },
    ], items, kind);
  });
  edit(kind, null, editor, refresh);
  await refresh();
}

function deleteButton(kind, it, refresh) {
  const b = h('button', { type: 'button', class: 'danger small' }, 'Delete');
  b.addEventListener('click', async () => {
    if (!confirm('Delete ' + it.name + ' (' + it.id + ')?')) return;
    try {
      await api('DELETE', '/admin/v1/extend/' + kind + '/' + encodeURIComponent(it.id));
      await refresh();
    } catch (e) {
      b.after(alertBox(e));
    }
  });
  return b;
}

function edit(kind, it, where, refresh) {
  const id = input({ name: 'id', value: it?.id || '', placeholder: 'e.g. code-review' });
  const json = h('textarea', { name: 'entry', rows: 10, spellcheck: 'false', class: 'mono' },
    it ? JSON.stringify(strip(it), null, 2) : JSON.stringify(template(kind), null, 2));
  const save = h('button', { type: 'submit' }, it ? 'Save entry' : 'Create entry');
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'panel stack', novalidate: true, 'aria-labelledby': 'entry-h' },
    h('h2', { id: 'entry-h' }, (it ? 'Edit ' : 'New ') + kind.replace(/s$/, '').replace('-', ' ')),
    field('Id', id), field('Entry (JSON, as in a seed file)', json), h('div', { class: 'row' }, save), status);
  onSubmit(form, save, async () => {
    let body;
    try { body = JSON.parse(json.value); } catch (err) { throw { message: 'Not valid JSON: ' + err.message, param: 'entry' }; }
    await api('PUT', '/admin/v1/extend/' + kind + '/' + encodeURIComponent(id.value.trim()), body);
    status.replaceChildren(notice('ok', 'Saved.'));
    await refresh();
  });
  const parts = [form];
  if (kind === 'plugins' && it) parts.push(uploadForm(it, refresh));
  where.replaceChildren(...parts);
}

function uploadForm(it, refresh) {
  const file = h('input', { type: 'file', name: 'file' });
  const submit = h('button', { type: 'submit' }, 'Upload file');
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'panel stack', novalidate: true }, h('h2', {}, 'Plugin file for ' + it.name),
    field('File', file, it.file_name ? 'Now: ' + it.file_name : 'No file yet.', 'file_name'), h('div', {}, submit), status);
  onSubmit(form, submit, async () => {
    const f = file.files[0];
    if (!f) throw { message: 'Choose a file first.', param: 'file_name' };
    const r = await api('PUT', '/admin/v1/extend/plugins/' + encodeURIComponent(it.id) + '/artifact' + query({ file_name: f.name }), f);
    status.replaceChildren(notice('ok', 'Uploaded ' + r.file_name + ' (' + r.size + ' bytes).'));
    await refresh();
  });
  return form;
}

const COUNTS = ['likes', 'use_count', 'forks', 'interactions', 'liked', 'created_at', 'updated_at', 'download_url', 'size', 'sha256', 'file_name', 'content_type'];
function strip(it) {
  const o = { ...it };
  for (const k of COUNTS) delete o[k];
  return o;
}

function template(kind) {
  switch (kind) {
    case 'skills': return { name: '', description: '', tags: [], body: { system_prompt: '', rules: [], hints: {} } };
    case 'mcp-servers': return { name: '', description: '', url: 'https://', transport: 'streamable-http', tools: [], tags: [] };
    case 'marketplaces': return { name: '', description: '', items: [], tags: [] };
    case 'characters': return { name: '', description: '', personality: '', scenario: '', first_mes: '', tags: [] };
    default: return { name: '', description: '', section: 'tools', version: '1.0.0', verified: false };
  }
}
