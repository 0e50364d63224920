// Small DOM helpers shared by every page: an element builder (text is always set as text, never as HTML), fields
// with their error slot, tables, empty and error states.

/** h('button', {class: 'x', onclick: fn}, 'text', child...): an element; strings become text nodes. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'disabled' || k === 'selected' || k === 'required' || k === 'multiple') el[k] = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

let ids = 0;
export function uid(prefix = 'f') { ids += 1; return prefix + '-' + ids; }

/**
 * A labelled field: {label, name, input (element), hint}. The input gets an id, aria-describedby for the hint and
 * the error slot, and data-field=name so API errors naming the field land next to it.
 */
export function field(label, input, hint, name) {
  const id = input.id || uid('in');
  input.id = id;
  const key = name || input.name;
  const hintEl = hint ? h('span', { class: 'hint', id: id + '-hint' }, hint) : null;
  const errEl = h('span', { class: 'error', id: id + '-err', role: 'alert', hidden: true });
  input.setAttribute('aria-describedby', [hintEl ? id + '-hint' : null, id + '-err'].filter(Boolean).join(' '));
  const wrap = h('div', { class: 'field', dataset: { field: key || '' } }, h('label', { for: id }, label), input, hintEl, errEl);
  return wrap;
}

/** Clears the field errors and the form-level alert of a form. */
export function clearErrors(root) {
  root.querySelectorAll('.field .error').forEach((e) => { e.textContent = ''; e.hidden = true; });
  root.querySelectorAll('[aria-invalid="true"]').forEach((e) => e.removeAttribute('aria-invalid'));
  root.querySelectorAll(':scope > .alert.form-error').forEach((e) => e.remove());
}

/**
 * Shows an API error in place: next to the field it names (error.param, also dotted like "hints.temperature" or
 * "skills[0]"), else at the top of the form. Focuses the field so keyboard users land on it.
 */
export function showError(root, err) {
  clearErrors(root);
  const param = err && err.param;
  if (param) {
    const candidates = [param, param.split('.').pop(), param.replace(/\[\d+\]$/, ''), param.split(/[.[]/)[0]];
    for (const name of candidates) {
      const f = root.querySelector('.field[data-field="' + CSS.escape(name) + '"]');
      if (f) {
        const e = f.querySelector('.error');
        e.textContent = err.message;
        e.hidden = false;
        const input = f.querySelector('input, select, textarea');
        if (input) { input.setAttribute('aria-invalid', 'true'); input.focus(); }
        return;
      }
    }
  }
  root.prepend(alertBox(err));
}

/**
 * Wires a form's submit: the default prevented, earlier errors cleared, `button` disabled while `action` runs, and an
 * API error shown in place (next to the field it names).
 */
export function onSubmit(form, button, action) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    button.disabled = true;
    try {
      await action();
    } catch (err) {
      showError(form, err);
    } finally {
      button.disabled = false;
    }
  });
}

/** An error box: the gateway's message, its status and request id (for the logs). */
export function alertBox(err, extra) {
  const box = h('div', { class: 'alert error form-error', role: 'alert' },
    h('strong', {}, err && err.status ? 'Error ' + err.status + ': ' : 'Error: '), (err && err.message) || String(err));
  if (err && err.requestId) box.append(h('span', { class: 'small muted' }, ' (request ' + err.requestId + ')'));
  if (extra) box.append(' ', extra);
  return box;
}

export function notice(kind, ...content) {
  return h('div', { class: 'alert ' + kind, role: kind === 'error' ? 'alert' : 'status' }, ...content);
}

/** The empty state: what is missing and what to do about it. */
export function empty(text, action) {
  return h('div', { class: 'empty' }, h('p', {}, text), action || null);
}

/** A feature whose API route this server does not have (a real 404 from the gateway, never made-up data). */
export function unavailable(what, err) {
  return h('div', { class: 'unavailable', role: 'status' },
    h('strong', {}, what + ' is not available on this server. '),
    'The gateway has no route for it (' + (err && err.message ? err.message : '404') + ').');
}

/** Renders whatever a section loader produced: an error box in place of content when it failed. */
export async function section(container, load) {
  container.replaceChildren(h('p', { class: 'loading', role: 'status' }, 'Loading…'));
  try {
    const content = await load();
    container.replaceChildren(...[content].flat(Infinity).filter(Boolean));
  } catch (e) {
    container.replaceChildren(alertBox(e));
  }
}

/**
 * A table: columns [{label, value: row => string|Node, num: bool}], rows; caption for screen readers.
 */
export function table(columns, rows, caption) {
  return h('div', { class: 'table-wrap' }, h('table', {},
    caption ? h('caption', { class: 'sr-only' }, caption) : null,
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, columns.map((c) => h('td', { class: c.num ? 'num' : null }, c.value(r))))))));
}

export function badge(text, kind) { return h('span', { class: 'badge' + (kind ? ' ' + kind : '') }, text); }

/** A button that copies text to the clipboard and says so. */
export function copyButton(text, label = 'Copy') {
  const b = h('button', { type: 'button', class: 'secondary small' }, label);
  b.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = 'Copied';
    } catch {
      b.textContent = 'Select and copy it by hand';
    }
    setTimeout(() => { b.textContent = label; }, 2500);
  });
  return b;
}

export function input(attrs) { return h('input', { type: 'text', ...attrs }); }

export function select(name, options, value, attrs = {}) {
  return h('select', { name, ...attrs }, options.map((o) => {
    const [v, label] = Array.isArray(o) ? o : [o, o];
    return h('option', { value: v, selected: v === value }, label);
  }));
}

export function pageTitle(text, ...rest) {
  document.title = text + ' · Switchboard';
  return h('h1', {}, text, ...rest);
}

/** A bar chart as inline SVG (no library): points [{label, value}], value formatter for the tooltip and axis. */
export function barChart(points, fmt, title) {
  const w = 640, hgt = 180, pad = 28;
  const max = Math.max(0, ...points.map((p) => p.value));
  const bw = points.length ? (w - pad * 2) / points.length : 0;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + w + ' ' + hgt);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', title + ': ' + points.map((p) => p.label + ' ' + fmt(p.value)).join(', '));
  const mk = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  mk('line', { class: 'axis', x1: pad, y1: hgt - pad, x2: w - pad, y2: hgt - pad });
  points.forEach((p, i) => {
    const bh = max > 0 ? (p.value / max) * (hgt - pad * 2) : 0;
    const r = mk('rect', { class: 'bar', x: pad + i * bw + 1, y: hgt - pad - bh, width: Math.max(1, bw - 2), height: bh });
    const t = document.createElementNS(ns, 'title');
    t.textContent = p.label + ': ' + fmt(p.value);
    r.append(t);
    if (points.length <= 10 || i % Math.ceil(points.length / 8) === 0) {
      mk('text', { x: pad + i * bw + bw / 2, y: hgt - pad + 14, 'text-anchor': 'middle' }, p.label);
    }
  });
  mk('text', { x: pad, y: 14 }, 'max ' + fmt(max));
  return svg;
}
