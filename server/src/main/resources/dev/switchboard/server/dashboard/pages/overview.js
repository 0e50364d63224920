import { get } from '../api.js';
import { h, section, pageTitle, unavailable, barChart, table, empty } from '../ui.js';
import { money, time, count, nanosToDecimal, usdNumber } from '../format.js';
import { usage, daysAgo, lastDays, unwrap, MAX_ROWS } from './usage-data.js';

export async function render(root, ctx) {
  const me = await ctx.refreshUser();
  const u = me.user;
  const credits = h('div');
  const activity = h('div');
  root.append(pageTitle('Overview'),
    h('div', { class: 'grid' },
      stat('Balance', money(u.balance_usd), 'balance'),
      stat('Plan', u.plan || 'payg', 'plan')),
    credits, activity,
    h('section', { class: 'panel' }, h('h2', {}, 'Start here'), h('ol', {},
      h('li', {}, h('a', { href: '#/keys' }, 'Create an API key'), ' and use it from your code or SDK (base URL ', h('code', {}, location.origin + '/v1'), ').'),
      h('li', {}, h('a', { href: '#/models' }, 'Pick a model'), ' and try it in the ', h('a', { href: '#/playground' }, 'playground'), '.'),
      h('li', {}, 'Install ', h('a', { href: '#/skills' }, 'skills'), ' or save per-model ', h('a', { href: '#/defaults' }, 'defaults'), '.'))));

  await Promise.all([
    section(credits, async () => {
      try {
        const c = unwrap(await get('/v1/credits'));
        return h('div', { class: 'grid' },
          stat('Plan expires', c.plan_expires_at ? time(c.plan_expires_at) : 'never', 'plan-expiry'),
          stat('Spent today', money(c.spend_today_usd), 'spend-today'),
          stat('Spent this month', money(c.spend_month_usd), 'spend-month'));
      } catch (e) {
        if (e.missingRoute) return unavailable('Spend figures (GET /v1/credits)', e);
        throw e;
      }
    }),
    section(activity, async () => {
      let data;
      try {
        data = await usage({ from: daysAgo(29), limit: MAX_ROWS });
      } catch (e) {
        if (e.missingRoute) return unavailable('Usage history (GET /v1/usage)', e);
        throw e;
      }
      const days = lastDays(data.days, 30);
      const sum = (n) => days.slice(-n).reduce((a, d) => a + d.cost_nanos, 0n);
      if (!data.rows.length) {
        return empty('No requests in the last 30 days. Send one with a key, or from the playground, and it shows here.');
      }
      return [
        h('div', { class: 'grid' },
          stat('Spend, 7 days', money(nanosToDecimal(sum(7))), 'spend-7d'),
          stat('Spend, 30 days', money(nanosToDecimal(sum(30))), 'spend-30d'),
          stat('Requests, 30 days', count(days.reduce((a, d) => a + d.requests, 0)), 'requests-30d')),
        h('section', { class: 'panel' }, h('h2', {}, 'Spend per day'),
          barChart(days.map((d) => ({ label: d.day.slice(5), value: usdNumber(nanosToDecimal(d.cost_nanos)) })), (v) => '$' + v.toFixed(6).replace(/0+$/, '').replace(/\.$/, '.00'), 'Spend per day, last 30 days')),
        h('section', { class: 'panel' }, h('h2', {}, 'Requests and tokens per day'),
          barChart(days.map((d) => ({ label: d.day.slice(5), value: d.requests })), (v) => count(v) + ' requests', 'Requests per day'),
          barChart(days.map((d) => ({ label: d.day.slice(5), value: d.tokens })), (v) => count(v) + ' tokens', 'Tokens per day')),
        h('section', {}, h('h2', {}, 'Top models'), table([
          { label: 'Model', value: (m) => m.model },
          { label: 'Requests', num: true, value: (m) => count(m.requests) },
          { label: 'Tokens', num: true, value: (m) => count(m.tokens) },
          { label: 'Cost', num: true, value: (m) => money(nanosToDecimal(m.cost_nanos)) },
        ], data.models.slice(0, 5), 'Top models, last 30 days')),
      ];
    }),
  ]);
}

function stat(label, value, id) {
  return h('div', { class: 'stat', 'data-testid': id }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value));
}
