// The dashboard shell: who is signed in, the navigation, and the hash router that loads one page module at a time.
import { api, setCsrf, whenSignedOut } from './api.js';
import { h, alertBox } from './ui.js';
import { zone } from './format.js';

/** Hash routes: path pattern -> page module, nav label, whether only admins see it. */
const ROUTES = [
  { path: '/', page: 'overview', label: 'Overview' },
  { path: '/keys', page: 'keys', label: 'API keys' },
  { path: '/usage', page: 'usage', label: 'Usage' },
  { path: '/models', page: 'models', label: 'Models' },
  { path: '/defaults', page: 'defaults', label: 'Defaults' },
  { path: '/playground', page: 'playground', label: 'Playground' },
  { path: '/skills', page: 'skills', label: 'Skills' },
  { path: '/skills/new', page: 'skill-edit', nav: false },
  { path: '/skills/edit/:id', page: 'skill-edit', nav: false },
  { path: '/catalog', page: 'catalog', label: 'Catalog' },
  { path: '/catalog/:kind', page: 'catalog', nav: false },
  { path: '/account', page: 'account', label: 'Account' },
  { path: '/admin/users', page: 'admin-users', label: 'Users', admin: true },
  { path: '/admin/usage', page: 'admin-usage', label: 'All usage', admin: true },
  { path: '/admin/providers', page: 'admin-providers', label: 'Providers', admin: true },
  { path: '/admin/catalog', page: 'admin-catalog', label: 'Curation', admin: true },
  { path: '/login', page: 'login', nav: false, public: true },
];

const state = { user: null, csrf: null, active: null };
const main = document.getElementById('main');
const nav = document.getElementById('nav');
const toggle = document.getElementById('menu-toggle');

function match(path) {
  for (const r of ROUTES) {
    const want = r.path.split('/');
    const got = path.split('/');
    if (want.length !== got.length) continue;
    const params = {};
    let ok = true;
    want.forEach((seg, i) => {
      if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(got[i]);
      else if (seg !== got[i]) ok = false;
    });
    if (ok) return { route: r, params };
  }
  return null;
}

function currentPath() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, q] = raw.split('?');
  return { path, query: new URLSearchParams(q || '') };
}

export function navigate(hash) {
  if (location.hash === hash) render(); else location.hash = hash;
}

function renderNav(active) {
  state.active = active;
  if (!state.user) { nav.hidden = true; toggle.hidden = true; return; }
  nav.hidden = false;
  toggle.hidden = !window.matchMedia('(max-width: 760px)').matches;
  const link = (r) => h('a', { href: '#' + r.path, 'aria-current': active === r ? 'page' : null }, r.label);
  const mine = ROUTES.filter((r) => r.label && !r.admin);
  const admin = state.user.role === 'admin' ? ROUTES.filter((r) => r.label && r.admin) : [];
  const signOut = h('button', { type: 'button', class: 'link', onclick: logout }, 'Sign out');
  nav.replaceChildren(...mine.map(link),
    admin.length ? h('span', { class: 'sep', 'aria-hidden': 'true' }) : null,
    ...(admin.length ? [h('span', { class: 'sr-only' }, 'Operator:'), ...admin.map(link)] : []),
    h('span', { class: 'who' }, state.user.name + (state.user.role === 'admin' ? ' (admin)' : '')), signOut);
  nav.querySelectorAll('a').forEach((a) => a.addEventListener('click', () => collapse(true)));
}

function collapse(yes) {
  if (toggle.hidden) { nav.removeAttribute('data-collapsed'); return; }
  nav.dataset.collapsed = yes ? 'true' : 'false';
  toggle.setAttribute('aria-expanded', yes ? 'false' : 'true');
}
toggle.addEventListener('click', () => collapse(nav.dataset.collapsed !== 'true'));
// Only the menu changes with the width: the page (and whatever was typed into it) stays.
window.matchMedia('(max-width: 760px)').addEventListener('change', () => { renderNav(state.active); collapse(true); });

async function logout() {
  try { await api('POST', '/auth/logout'); } catch { /* signed out either way */ }
  state.user = null;
  setCsrf(null);
  sessionStorage.clear();
  navigate('#/login');
}

/** Called by pages after sign-in (login) or after a change that alters the user (password). */
export function signedIn(answer) {
  state.user = answer.user;
  state.csrf = answer.csrf_token;
  setCsrf(answer.csrf_token);
}

whenSignedOut(() => {
  state.user = null;
  setCsrf(null);
  const { path } = currentPath();
  if (path !== '/login') navigate('#/login?next=' + encodeURIComponent(path));
});

let renderCount = 0;
async function render() {
  const mine = ++renderCount;
  const { path, query } = currentPath();
  const m = match(path);
  if (!state.user && !(m && m.route.public)) {
    navigate('#/login?next=' + encodeURIComponent(path));
    return;
  }
  if (!m) {
    renderNav(null);
    main.replaceChildren(h('h1', {}, 'Page not found'), h('p', {}, 'There is no page at ' + path + '. '),
      h('a', { href: '#/' }, 'Go to the overview'));
    return;
  }
  if (m.route.admin && state.user.role !== 'admin') {
    renderNav(null);
    main.replaceChildren(h('h1', {}, 'Operators only'), h('p', {}, 'This page is for users with the admin role.'));
    return;
  }
  renderNav(m.route);
  collapse(true);
  try {
    const mod = await import('./pages/' + m.route.page + '.js');
    if (mine !== renderCount) return;
    const container = h('div', { class: 'page', dataset: { page: m.route.page } });
    main.replaceChildren(container);
    await mod.render(container, { user: state.user, params: m.params, query, navigate, signedIn, refreshUser });
    if (mine === renderCount) main.focus({ preventScroll: true });
  } catch (e) {
    if (mine === renderCount) main.replaceChildren(alertBox(e));
  }
}

async function refreshUser() {
  const me = await api('GET', '/auth/me');
  signedIn(me);
  renderNav(match(currentPath().path)?.route ?? null);
  return me;
}

async function start() {
  document.getElementById('zone').textContent = 'Times are shown in your time zone: ' + zone() + '.';
  try {
    signedIn(await api('GET', '/auth/me'));
  } catch (e) {
    if (e.status !== 401) { main.replaceChildren(alertBox(e)); return; }
  }
  window.addEventListener('hashchange', render);
  render();
}

start();
