import { api, get, query } from '../api.js';
import { h, field, input, select, empty, badge, section, pageTitle, alertBox, notice } from '../ui.js';
import { count, time } from '../format.js';

const TABS = [['browse', 'Browse'], ['mine', 'My skills'], ['installed', 'Installed']];
const LIMIT = 24;

export async function render(root, ctx) {
  const tab = TABS.some(([t]) => t === ctx.query.get('tab')) ? ctx.query.get('tab') : 'browse';
  const status = h('div', { 'aria-live': 'polite' });
  root.append(pageTitle('Skills'),
    h('p', { class: 'muted' }, 'A skill is a system prompt, text rules and parameter hints applied to your chat requests. Installed skills apply to every request that names no skill.'),
    h('nav', { class: 'tabs', 'aria-label': 'Skill lists' }, TABS.map(([t, label]) =>
      h('a', { href: '#/skills?tab=' + t, 'aria-current': t === tab ? 'page' : null }, label)),
    h('a', { href: '#/skills/new' }, '+ New skill')),
    status);
  const installed = new Set((await get('/v1/skills/installed')).installed.map((i) => i.skill_id));
  const env = { ctx, installed, status };
  if (tab === 'browse') await browse(root, env);
  else if (tab === 'mine') await mine(root, env);
  else await installedList(root, env);
}

async function browse(root, env) {
  const q = env.ctx.query;
  const search = input({ name: 'search', type: 'search', value: q.get('search') || '', placeholder: 'name or description' });
  const tags = (await get('/v1/skill-tags')).tags;
  const tag = select('tags', [['', 'any tag'], ...tags.map((t) => [t.tag, t.tag + ' (' + t.count + ')'])], q.get('tags') || '');
  const sort = select('sort', [['popular', 'popular'], ['recent', 'recent'], ['likes', 'likes'], ['name', 'name']], q.get('sort') || 'popular');
  const page = Number(q.get('page') || 0);
  const go = (p) => env.ctx.navigate('#/skills' + query({ tab: 'browse', search: search.value.trim(), tags: tag.value, sort: sort.value, page: p || '' }));
  const form = h('form', { class: 'panel row', role: 'search' }, field('Search', search), field('Tag', tag), field('Sort by', sort),
    h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => { e.preventDefault(); go(0); });
  tag.addEventListener('change', () => go(0));
  sort.addEventListener('change', () => go(0));
  const list = h('div');
  root.append(form, list);
  await section(list, async () => {
    const r = await get('/v1/skills' + query({ search: q.get('search'), tags: q.get('tags'), sort: q.get('sort'), page, limit: LIMIT }));
    if (!r.skills.length) return empty(q.get('search') || q.get('tags') ? 'No skill matches. Try another word or tag.' : 'The catalog has no public skills yet. Create the first one.',
      h('a', { href: '#/skills/new', class: 'button' }, 'New skill'));
    const pages = Math.ceil(r.total / r.limit);
    return [h('p', { class: 'small muted' }, r.total + ' skills'), h('div', { class: 'cards' }, r.skills.map((s) => card(s, env))),
      pages > 1 ? h('nav', { class: 'row', 'aria-label': 'Pages' },
        h('button', { type: 'button', class: 'secondary', disabled: page <= 0, onclick: () => go(page - 1) }, 'Previous'),
        h('span', {}, 'Page ' + (page + 1) + ' of ' + pages),
        h('button', { type: 'button', class: 'secondary', disabled: page + 1 >= pages, onclick: () => go(page + 1) }, 'Next')) : null];
  });
}

async function mine(root, env) {
  const list = h('div');
  root.append(list);
  await section(list, async () => {
    const r = await get('/v1/skills/user' + query({ sort: 'recent', limit: 100 }));
    if (!r.skills.length) return empty('You have no skills yet. Create one, or fork a public skill to start from it.',
      h('a', { href: '#/skills/new', class: 'button' }, 'New skill'));
    return h('div', { class: 'cards' }, r.skills.map((s) => card(s, env, true)));
  });
}

async function installedList(root, env) {
  const list = h('div');
  root.append(list);
  await section(list, async () => {
    const r = await get('/v1/skills/installed');
    if (!r.installed.length) return empty('No skill is installed. Install one from Browse to apply it to your requests.');
    return h('div', { class: 'cards' }, r.installed.map((i) => card(i.skill, env, i.skill.creator_username === env.ctx.user.name,
      i.models.length ? 'for ' + i.models.join(', ') : 'for every model')));
  });
}

function card(s, env, own = false, note) {
  const liked = !!s.liked;
  const likeBtn = h('button', { type: 'button', class: 'secondary small', 'aria-pressed': liked ? 'true' : 'false' }, (liked ? '♥ Liked ' : '♡ Like ') + '(' + count(s.likes) + ')');
  likeBtn.addEventListener('click', act(likeBtn, async () => {
    const pressed = likeBtn.getAttribute('aria-pressed') === 'true';
    const r = await api(pressed ? 'DELETE' : 'POST', '/v1/skills/' + encodeURIComponent(s.id) + '/like');
    likeBtn.setAttribute('aria-pressed', r.liked ? 'true' : 'false');
    likeBtn.textContent = (r.liked ? '♥ Liked ' : '♡ Like ') + '(' + count(r.likes) + ')';
  }));
  const forkBtn = h('button', { type: 'button', class: 'secondary small' }, 'Fork');
  forkBtn.addEventListener('click', act(forkBtn, async () => {
    const copy = await api('POST', '/v1/skills/' + encodeURIComponent(s.id) + '/fork', {});
    env.ctx.navigate('#/skills/edit/' + encodeURIComponent(copy.id));
  }));
  const isInstalled = env.installed.has(s.id);
  const installBtn = h('button', { type: 'button', class: isInstalled ? 'danger small' : 'small' }, isInstalled ? 'Uninstall' : 'Install');
  installBtn.addEventListener('click', act(installBtn, async () => {
    const now = env.installed.has(s.id);
    await api(now ? 'DELETE' : 'POST', '/v1/skills/' + encodeURIComponent(s.id) + '/install', now ? undefined : {});
    if (now) env.installed.delete(s.id); else env.installed.add(s.id);
    installBtn.textContent = now ? 'Install' : 'Uninstall';
    installBtn.className = now ? 'small' : 'danger small';
    env.status.replaceChildren(notice('ok', now ? 'Uninstalled "' + s.name + '".' : 'Installed "' + s.name + '": it now applies to your requests that name no skill.'));
  }));
  const details = h('details', {}, h('summary', {}, 'What it does'),
    s.body?.system_prompt ? h('pre', {}, s.body.system_prompt) : h('p', { class: 'small muted' }, 'No system prompt.'),
    s.body?.rules?.length ? h('ul', { class: 'small' }, s.body.rules.map((r) => h('li', {}, ruleText(r)))) : null,
    s.body?.hints && Object.keys(s.body.hints).length ? h('p', { class: 'small' }, 'Hints: ', h('code', {}, JSON.stringify(s.body.hints))) : null);
  return h('article', { class: 'card', 'aria-label': 'Skill ' + s.name, dataset: { skillId: s.id } },
    h('h3', {}, s.name, ' ', s.official ? badge('official', 'official') : null, s.visibility && s.visibility !== 'public' ? badge(s.visibility, 'warn') : null),
    h('p', { class: 'small muted' }, 'by ' + (s.creator_username || 'unknown') + (s.forked_from ? ' · fork of ' + s.forked_from : '') + ' · ' + time(s.updated_at)),
    h('p', {}, s.description || ''),
    h('div', {}, (s.tags || []).map((t) => badge(t))),
    h('p', { class: 'small' }, count(s.use_count) + ' uses · ' + count(s.forks) + ' forks' + (note ? ' · installed ' + note : '')),
    details,
    h('div', { class: 'actions' }, likeBtn, forkBtn, installBtn,
      own ? h('a', { class: 'button secondary small', href: '#/skills/edit/' + encodeURIComponent(s.id) }, 'Edit') : null,
      h('code', { class: 'small muted', title: 'Skill id' }, s.id)));
}

export function ruleText(r) {
  const where = r.target === 'all_user' ? 'every user message' : 'the last user message';
  if (r.type === 'replace') return 'replace ' + (r.regex ? 'pattern ' : '') + JSON.stringify(r.find) + ' with ' + JSON.stringify(r.replace ?? '') + ' in ' + where;
  return r.type + ' ' + JSON.stringify(r.text) + ' to ' + where;
}

function act(button, fn) {
  return async () => {
    button.disabled = true;
    button.closest('.card').querySelectorAll('.alert').forEach((a) => a.remove());
    try {
      await fn();
    } catch (e) {
      button.closest('.card').append(alertBox(e));
    } finally {
      button.disabled = false;
    }
  };
}
