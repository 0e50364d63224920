import { api, get, query } from '../api.js';
import { h, field, input, select, onSubmit, table, empty, section, notice, pageTitle } from '../ui.js';
import { money, time } from '../format.js';

const LIMIT = 50;

export async function render(root, ctx) {
  const page = Number(ctx.query.get('page') || 0);
  const list = h('div');
  const detail = h('div', { 'aria-live': 'polite' });
  const refresh = () => section(list, async () => {
    const r = await get('/admin/v1/users' + query({ page, limit: LIMIT }));
    if (!r.users.length) return empty('No users yet. Create the first one above.');
    const pages = Math.ceil(r.total / r.limit);
    return [table([
      { label: 'Name', value: (u) => h('button', { type: 'button', class: 'secondary small', onclick: () => showUser(u.id, detail, refresh) }, u.name) },
      { label: 'E-mail', value: (u) => u.email || '' },
      { label: 'Plan', value: (u) => u.plan + (u.plan_expires_at ? ' until ' + time(u.plan_expires_at) : '') },
      { label: 'Balance', num: true, value: (u) => money(u.balance_usd) },
      { label: 'Created', value: (u) => time(u.created_at) },
      { label: 'Id', value: (u) => h('code', { class: 'small' }, u.id) },
    ], r.users, 'Users'),
    pages > 1 ? h('nav', { class: 'row', 'aria-label': 'Pages' },
      h('a', { href: '#/admin/users?page=' + (page - 1), hidden: page <= 0 }, 'Previous'), h('span', {}, 'Page ' + (page + 1) + ' of ' + pages),
      h('a', { href: '#/admin/users?page=' + (page + 1), hidden: page + 1 >= pages }, 'Next')) : null];
  });
  root.append(pageTitle('Users'), createForm(refresh), detail, h('h2', {}, 'Every user'), list);
  await refresh();
}

function createForm(refresh) {
  const name = input({ name: 'name', required: true });
  const email = input({ name: 'email', type: 'email' });
  const password = input({ name: 'password', type: 'password', autocomplete: 'new-password' });
  const plan = input({ name: 'plan', placeholder: 'payg' });
  const balance = input({ name: 'balance_usd', inputmode: 'decimal', placeholder: '0.00' });
  const submit = h('button', { type: 'submit' }, 'Create user');
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'panel stack', novalidate: true, 'aria-labelledby': 'new-user-h' }, h('h2', { id: 'new-user-h' }, 'Create a user'),
    h('div', { class: 'row' }, field('Name', name), field('E-mail', email, 'Optional.'), field('Password', password, 'Optional; lets them sign in here.')),
    h('div', { class: 'row' }, field('Plan', plan, 'Optional.'), field('Opening balance (USD)', balance, 'Optional, e.g. 25.50.')),
    h('div', {}, submit), status);
  onSubmit(form, submit, async () => {
    const body = { name: name.value.trim() };
    if (email.value.trim()) body.email = email.value.trim();
    if (password.value) body.password = password.value;
    if (plan.value.trim()) body.plan = plan.value.trim();
    if (balance.value.trim()) body.balance_usd = balance.value.trim();
    const u = await api('POST', '/admin/v1/users', body);
    form.reset();
    status.replaceChildren(notice('ok', 'Created ' + u.name + ' (' + u.id + ').'));
    await refresh();
  });
  return form;
}

async function showUser(id, where, refreshList) {
  await section(where, async () => {
    const u = await get('/admin/v1/users/' + encodeURIComponent(id));
    const box = h('section', { class: 'panel stack', 'aria-labelledby': 'user-h' });
    const reload = () => showUser(id, where, refreshList).then(refreshList);
    box.append(h('h2', { id: 'user-h' }, u.name),
      h('dl', { class: 'kv' },
        h('dt', {}, 'Id'), h('dd', {}, h('code', {}, u.id)),
        h('dt', {}, 'E-mail'), h('dd', {}, u.email || '—'),
        h('dt', {}, 'Plan'), h('dd', {}, u.plan + (u.plan_expires_at ? ' until ' + time(u.plan_expires_at) : '')),
        h('dt', {}, 'Balance'), h('dd', { 'data-testid': 'user-balance' }, money(u.balance_usd)),
        h('dt', {}, 'Keys'), h('dd', {}, (u.keys || []).length ? (u.keys || []).map((k) => k.name + ' (' + k.prefix + '…' + (k.revoked_at ? ', revoked' : '') + ')').join(', ') : 'none')),
      creditForm(u, reload), planForm(u, reload), passwordForm(u), roleForm(u),
      h('h3', {}, 'Recent ledger'),
      (u.ledger || []).length ? table([
        { label: 'When', value: (e) => time(e.created_at) },
        { label: 'Kind', value: (e) => e.kind },
        { label: 'Amount', num: true, value: (e) => money(e.amount_usd) },
        { label: 'Balance after', num: true, value: (e) => money(e.balance_after_usd) },
        { label: 'Note', value: (e) => e.note || (e.request_id ? 'request ' + e.request_id : '') },
      ], u.ledger, 'Ledger') : empty('No ledger entries yet.'));
    return box;
  });
  where.scrollIntoView({ block: 'nearest' });
}

function miniForm(title, fields, label, send) {
  const submit = h('button', { type: 'submit' }, label);
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'stack', novalidate: true }, h('h3', {}, title), h('div', { class: 'row' }, ...fields, submit), status);
  onSubmit(form, submit, async () => {
    status.replaceChildren();
    status.replaceChildren(notice('ok', await send()));
  });
  return form;
}

function creditForm(u, reload) {
  const amount = input({ name: 'amount_usd', inputmode: 'decimal', placeholder: 'e.g. 10.00' });
  const note = input({ name: 'note', maxlength: 500 });
  return miniForm('Add credit', [field('Amount (USD)', amount), field('Note', note, 'Kept in the ledger.')], 'Add credit', async () => {
    const r = await api('POST', '/admin/v1/users/' + encodeURIComponent(u.id) + '/credits', { amount_usd: amount.value.trim(), ...(note.value.trim() ? { note: note.value.trim() } : {}) });
    setTimeout(reload, 0);
    return 'Added ' + money(r.amount_usd) + '; the balance is now ' + money(r.balance_usd) + '.';
  });
}

function planForm(u, reload) {
  const plan = input({ name: 'plan', value: u.plan });
  const expires = input({ name: 'expires_at', type: 'datetime-local' });
  return miniForm('Plan', [field('Plan', plan), field('Expires', expires, 'Optional; in your time zone.')], 'Set plan', async () => {
    try {
      await api('PUT', '/admin/v1/users/' + encodeURIComponent(u.id) + '/plan', { plan: plan.value.trim(), ...(expires.value ? { expires_at: new Date(expires.value).toISOString() } : {}) });
    } catch (e) {
      if (e.missingRoute) throw Object.assign(new Error('Setting plans is not available on this server (no route PUT /admin/v1/users/{id}/plan).'), { status: 404 });
      throw e;
    }
    setTimeout(reload, 0);
    return 'Plan set.';
  });
}

function passwordForm(u) {
  const password = input({ name: 'password', type: 'password', autocomplete: 'new-password' });
  return miniForm('Set password', [field('New password', password, 'Ends their sessions.')], 'Set password', async () => {
    const r = await api('PUT', '/admin/v1/users/' + encodeURIComponent(u.id) + '/password', { password: password.value });
    password.value = '';
    return 'Password set; ' + r.sessions_ended + ' session(s) ended.';
  });
}

function roleForm(u) {
  const role = select('role', [['user', 'user'], ['admin', 'admin']], u.role || 'user');
  return miniForm('Role', [field('Role', role)], 'Set role', async () => {
    const r = await api('PUT', '/admin/v1/users/' + encodeURIComponent(u.id) + '/role', { role: role.value });
    return 'Role is now ' + r.role + '.';
  });
}
