import { api, get, query } from '../api.js';
import { h, field, input, select, empty, badge, section, pageTitle, alertBox } from '../ui.js';
import { count } from '../format.js';

const KINDS = {
  'mcp-servers': { label: 'MCP servers', list: 'mcp_servers', paged: true },
  marketplaces: { label: 'Marketplaces', list: 'marketplaces', paged: true },
  characters: { label: 'Characters', list: 'characters' },
  plugins: { label: 'Plugins', list: 'plugins' },
};

export async function render(root, ctx) {
  const kind = KINDS[ctx.params.kind] ? ctx.params.kind : 'mcp-servers';
  const k = KINDS[kind];
  const q = ctx.query;
  const search = input({ name: 'search', type: 'search', value: q.get('search') || '' });
  const extra = kind === 'plugins'
    ? select('section', [['', 'every section'], ['verified', 'verified only']], q.get('section') || '')
    : kind === 'characters' ? input({ name: 'tags', value: q.get('tags') || '', placeholder: 'tags, separated by commas' })
      : select('sort', [['popular', 'popular'], ['recent', 'recent'], ['likes', 'likes'], ['name', 'name']], q.get('sort') || 'popular');
  const form = h('form', { class: 'panel row', role: 'search' }, field('Search', search),
    field(kind === 'plugins' ? 'Section' : kind === 'characters' ? 'Tags' : 'Sort by', extra), h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    ctx.navigate('#/catalog/' + kind + query({ search: search.value.trim(), [extra.name]: extra.value.trim() }));
  });
  const list = h('div');
  root.append(pageTitle('Catalog'),
    h('nav', { class: 'tabs', 'aria-label': 'Catalog sections' }, Object.entries(KINDS).map(([id, v]) =>
      h('a', { href: '#/catalog/' + id, 'aria-current': id === kind ? 'page' : null }, v.label)),
    h('a', { href: '#/skills' }, 'Skills')),
    form, list);
  await section(list, async () => {
    let path = '/v1/' + kind;
    if (kind === 'plugins' && q.get('section') === 'verified') path = '/v1/plugins/verified';
    const params = { search: q.get('search') };
    if (k.paged) { params.sort = q.get('sort'); params.limit = 100; }
    if (kind === 'characters') params.tags = q.get('tags');
    const r = await get(path + query(params));
    const items = r[k.list];
    if (!items.length) return empty(q.get('search') ? 'Nothing matches "' + q.get('search') + '".' : 'This section of the catalog is empty. The operator adds entries under Curation.');
    return [h('p', { class: 'small muted' }, r.total + ' entries'), h('div', { class: 'cards' }, items.map((it) => card(kind, it)))];
  });
}

function card(kind, it) {
  const body = [];
  if (kind === 'mcp-servers') {
    body.push(h('p', { class: 'small' }, it.transport + ' · ', h('code', {}, it.url)),
      it.tools?.length ? h('p', { class: 'small' }, 'Tools: ' + it.tools.map((t) => t.name || t).join(', ')) : null);
  } else if (kind === 'marketplaces') {
    body.push(h('ul', { class: 'small' }, (it.items || []).map((x) => h('li', {}, x.kind + ': ' + (x.item?.name || x.id)))));
  } else if (kind === 'characters') {
    body.push(it.personality ? h('p', { class: 'small' }, 'Personality: ' + it.personality) : null,
      h('p', { class: 'small' }, count(it.interactions) + ' chats · by ' + (it.creator || 'unknown')));
  } else if (kind === 'plugins') {
    body.push(h('p', { class: 'small' }, 'Version ' + it.version + ' · ' + it.section + ' · ' + count(it.size) + ' bytes'),
      h('p', { class: 'small mono' }, 'sha256 ' + (it.sha256 || '').slice(0, 16) + '…'));
  }
  const actions = [];
  if (kind !== 'plugins') actions.push(likeButton(kind, it));
  if (kind === 'plugins' && it.download_url) actions.push(h('a', { class: 'button small', href: it.download_url, download: it.file_name }, 'Download ' + it.file_name));
  if (kind === 'characters') actions.push(h('a', { class: 'button secondary small', href: '/v1/characters/' + encodeURIComponent(it.id) + '/card', download: it.name + '.json' }, 'Download card'));
  if (it.homepage) actions.push(h('a', { class: 'small', href: it.homepage, rel: 'noopener noreferrer', target: '_blank' }, 'Homepage'));
  return h('article', { class: 'card', 'aria-label': it.name },
    h('h3', {}, it.name, ' ', it.official ? badge('official', 'official') : null, it.verified ? badge('verified', 'yes') : null),
    h('p', {}, it.description || ''), ...body, h('div', {}, (it.tags || []).map((t) => badge(t))),
    h('div', { class: 'actions' }, actions));
}

function likeButton(kind, it) {
  const b = h('button', { type: 'button', class: 'secondary small', 'aria-pressed': it.liked ? 'true' : 'false' });
  const label = (liked, likes) => { b.textContent = (liked ? '♥ Liked ' : '♡ Like ') + '(' + count(likes) + ')'; b.setAttribute('aria-pressed', liked ? 'true' : 'false'); };
  label(!!it.liked, it.likes);
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      const liked = b.getAttribute('aria-pressed') === 'true';
      const r = await api(liked ? 'DELETE' : 'POST', '/v1/' + kind + '/' + encodeURIComponent(it.id) + '/like');
      label(r.liked, r.likes);
    } catch (e) {
      b.after(alertBox(e));
    } finally {
      b.disabled = false;
    }
  });
  return b;
}
