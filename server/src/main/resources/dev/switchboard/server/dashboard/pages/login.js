import { api } from '../api.js';
import { h, field, input, showError, pageTitle } from '../ui.js';

export async function render(root, ctx) {
  const next = ctx.query.get('next') || '/';
  const login = input({ name: 'login', autocomplete: 'username', required: true });
  const password = input({ name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const submit = h('button', { type: 'submit' }, 'Sign in');
  const form = h('form', { class: 'stack panel', novalidate: true },
    field('User name or e-mail', login),
    field('Password', password),
    submit);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    submit.disabled = true;
    try {
      const answer = await api('POST', '/auth/login', { login: login.value.trim(), password: password.value });
      ctx.signedIn(answer);
      ctx.navigate('#' + (next === '/login' ? '/' : next));
    } catch (err) {
      showError(form, err);
      password.value = '';
      password.focus();
    } finally {
      submit.disabled = false;
    }
  });
  root.append(h('div', { class: 'login' }, pageTitle('Sign in'),
    h('p', { class: 'muted' }, 'Sign in with the account your operator gave you. On a fresh install, the first start prints the demo user\'s password.'),
    form));
  login.focus();
}
