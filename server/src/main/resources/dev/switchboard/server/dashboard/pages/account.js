import { api } from '../api.js';
import { h, field, input, onSubmit, notice, pageTitle } from '../ui.js';
import { money, time } from '../format.js';

export async function render(root, ctx) {
  const u = ctx.user;
  const current = input({ name: 'current_password', type: 'password', autocomplete: 'current-password' });
  const next = input({ name: 'new_password', type: 'password', autocomplete: 'new-password', minlength: 8 });
  const submit = h('button', { type: 'submit' }, 'Change password');
  const form = h('form', { class: 'stack panel', novalidate: true },
    h('h2', {}, 'Password'),
    field('Current password', current),
    field('New password', next, 'At least 8 characters. Every other session of yours ends.'),
    h('div', {}, submit));
  onSubmit(form, submit, async () => {
    form.querySelectorAll('.alert').forEach((a) => a.remove());
    const answer = await api('POST', '/auth/password', { current_password: current.value, new_password: next.value });
    ctx.signedIn(answer);
    current.value = '';
    next.value = '';
    form.append(notice('ok', 'Password changed. Other sessions were signed out.'));
  });
  root.append(pageTitle('Account'),
    h('div', { class: 'panel' }, h('dl', { class: 'kv' },
      h('dt', {}, 'Name'), h('dd', {}, u.name),
      h('dt', {}, 'E-mail'), h('dd', {}, u.email || '—'),
      h('dt', {}, 'Role'), h('dd', {}, u.role),
      h('dt', {}, 'Plan'), h('dd', {}, u.plan || 'payg'),
      h('dt', {}, 'Balance'), h('dd', {}, money(u.balance_usd)),
      h('dt', {}, 'Member since'), h('dd', {}, time(u.created_at)))),
    form);
}
