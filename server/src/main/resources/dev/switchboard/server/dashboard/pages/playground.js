import { api, get, ApiError } from '../api.js';
import { h, field, input, select, alertBox, notice, pageTitle, empty } from '../ui.js';
import { money, count } from '../format.js';

const FORMATS = [
  ['chat', 'Chat completions (OpenAI)'], ['messages', 'Messages (Anthropic)'],
  ['responses', 'Responses (OpenAI)'], ['gemini', 'Generate content (Gemini)'],
];
const KEY_SLOT = 'switchboard.playground-key';

/**
 * The playground calls the real chat endpoints, which take API keys only (a session cookie never spends money):
 * it asks the gateway for a short-lived key of the signed-in user (POST /v1/keys/playground), keeps it in this
 * tab's session storage until it expires, and never shows it.
 */
async function playgroundKey(forceNew) {
  const kept = JSON.parse(sessionStorage.getItem(KEY_SLOT) || 'null');
  if (!forceNew && kept && new Date(kept.expires_at).getTime() - Date.now() > 60000) return kept.key;
  const k = await api('POST', '/v1/keys/playground', {});
  sessionStorage.setItem(KEY_SLOT, JSON.stringify({ key: k.key, expires_at: k.expires_at }));
  return k.key;
}

export async function render(root, ctx) {
  const { data } = await get('/v1/models');
  root.append(pageTitle('Playground'));
  if (!data.length) {
    root.append(empty('No model is available to you. Ask the operator to add one or to change your plan.'));
    return;
  }
  const want = ctx.query.get('model');
  const model = select('model', data.map((m) => m.id), data.some((m) => m.id === want) ? want : data[0].id);
  const format = select('format', FORMATS, ctx.query.get('format') || 'chat');
  const system = h('textarea', { name: 'system', rows: 2, placeholder: 'Optional system prompt' });
  const message = h('textarea', { name: 'message', rows: 4, required: true, placeholder: 'Type a message' });
  const skills = input({ name: 'skills', placeholder: 'Optional: skill ids, separated by commas' });
  const maxTokens = input({ name: 'max_tokens', inputmode: 'numeric', placeholder: 'Model or saved default' });
  const effort = select('reasoning', [['', 'not asked'], ['low', 'low'], ['medium', 'medium'], ['high', 'high']], ctx.query.get('reasoning') || '');
  const stream = h('input', { type: 'checkbox', name: 'stream', checked: true });
  const send = h('button', { type: 'submit' }, 'Send');
  const stop = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Stop');
  const out = h('section', { class: 'stack', 'aria-live': 'polite', 'aria-label': 'Answer' });
  const form = h('form', { class: 'panel stack', novalidate: true },
    h('div', { class: 'row' }, field('Model', model), field('Format', format), field('Max tokens', maxTokens),
      field('Reasoning', effort, 'Shown when the model reasons.')),
    field('System', system),
    field('Message', message, 'Ctrl+Enter sends.'),
    field('Skills', skills, 'Installed skills apply by themselves when none is named here.'),
    h('label', { class: 'check' }, stream, 'Stream the answer'),
    h('div', { class: 'row' }, send, stop));
  root.append(h('p', { class: 'muted' }, 'Requests here are real requests under a short-lived key of yours named "playground": they are billed and appear in your usage.'),
    form, out);
  message.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) form.requestSubmit(); });

  let controller = null;
  stop.addEventListener('click', () => controller && controller.abort());
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!message.value.trim()) { message.focus(); return; }
    controller = new AbortController();
    send.disabled = true;
    stop.disabled = false;
    try {
      await run({
        model: model.value, format: format.value, system: system.value.trim(), text: message.value,
        skills: skills.value.split(',').map((s) => s.trim()).filter(Boolean), maxTokens: maxTokens.value.trim(),
        effort: effort.value,
        stream: stream.checked, signal: controller.signal,
      }, out);
    } finally {
      send.disabled = false;
      stop.disabled = true;
    }
  });
}

const BUDGETS = { low: 1024, medium: 4096, high: 8192 };

/** The request in the chosen format, with the reasoning control each format has. */
function request(o) {
  const max = o.maxTokens ? Number(o.maxTokens) : undefined;
  const budget = o.effort ? BUDGETS[o.effort] : undefined;
  switch (o.format) {
    case 'messages': return {
      path: '/v1/messages',
      body: { model: o.model, max_tokens: max ?? (budget ? budget + 1024 : 1024), stream: o.stream,
        ...(o.system ? { system: o.system } : {}), ...(budget ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
        messages: [{ role: 'user', content: o.text }] },
    };
    case 'responses': return {
      path: '/v1/responses',
      body: { model: o.model, stream: o.stream, store: false, input: o.text, ...(o.system ? { instructions: o.system } : {}),
        ...(max ? { max_output_tokens: max } : {}), ...(o.effort ? { reasoning: { effort: o.effort, summary: 'auto' } } : {}) },
    };
    case 'gemini': {
      const config = { ...(max ? { maxOutputTokens: max } : {}), ...(budget ? { thinkingConfig: { thinkingBudget: budget, includeThoughts: true } } : {}) };
      return {
        path: '/v1beta/models/' + encodeURIComponent(o.model) + (o.stream ? ':streamGenerateContent?alt=sse' : ':generateContent'),
        body: { contents: [{ role: 'user', parts: [{ text: o.text }] }],
          ...(o.system ? { systemInstruction: { parts: [{ text: o.system }] } } : {}),
          ...(Object.keys(config).length ? { generationConfig: config } : {}) },
      };
    }
    default: return {
      path: '/v1/chat/completions',
      body: { model: o.model, stream: o.stream, messages: [...(o.system ? [{ role: 'system', content: o.system }] : []),
        { role: 'user', content: o.text }], ...(max ? { max_tokens: max } : {}), ...(o.effort ? { reasoning_effort: o.effort } : {}) },
    };
  }
}

async function call(o, req, retry = true) {
  const key = await playgroundKey(false);
  const headers = { 'content-type': 'application/json', authorization: 'Bearer ' + key };
  if (o.skills.length) headers['x-switchboard-skills'] = o.skills.join(',');
  if (o.format === 'messages') headers['anthropic-version'] = '2023-06-01';
  const r = await fetch(req.path, { method: 'POST', headers, body: JSON.stringify(req.body), signal: o.signal, credentials: 'omit' });
  if (r.status === 401 && retry) {
    await playgroundKey(true); // revoked or expired: one fresh key, once
    return call(o, req, false);
  }
  return r;
}

async function run(o, out) {
  const answer = h('div', { class: 'answer', 'data-testid': 'answer' });
  const reasoning = h('div', { class: 'reasoning', hidden: true, 'data-testid': 'reasoning' });
  const facts = h('dl', { class: 'kv', 'data-testid': 'facts' });
  out.replaceChildren(h('h2', {}, 'Answer'), reasoning, answer, facts);
  const acc = { text: '', reasoning: '', usage: {}, finish: '' };
  const started = performance.now();
  let r;
  try {
    r = await call(o, request(o));
  } catch (e) {
    out.append(alertBox(e.name === 'AbortError' ? { message: 'Stopped.' } : e));
    return;
  }
  const requestId = r.headers.get('x-request-id');
  if (!r.ok) {
    let body = null;
    try { body = await r.json(); } catch { body = null; }
    out.replaceChildren(h('h2', {}, 'Answer'), alertBox(new ApiError(r.status, body, requestId)));
    return;
  }
  const show = () => {
    answer.textContent = acc.text;
    reasoning.hidden = !acc.reasoning;
    reasoning.textContent = acc.reasoning ? 'Reasoning: ' + acc.reasoning : '';
  };
  try {
    if ((r.headers.get('content-type') || '').includes('text/event-stream')) {
      for await (const ev of events(r.body)) {
        absorb(o.format, ev, acc);
        show();
      }
    } else {
      absorbWhole(o.format, await r.json(), acc);
      show();
    }
  } catch (e) {
    out.append(alertBox(e.name === 'AbortError' ? { message: 'Stopped; the answer above is what arrived.' } : e));
  }
  const took = Math.round(performance.now() - started);
  const fact = (k, v) => facts.append(h('dt', {}, k), h('dd', {}, v));
  fact('Finish', acc.finish || '—');
  fact('Input tokens', count(acc.usage.input ?? 0));
  fact('Output tokens', count(acc.usage.output ?? 0));
  if (acc.usage.reasoning) fact('Reasoning tokens', count(acc.usage.reasoning));
  fact('Time', took + ' ms');
  fact('Request id', h('code', {}, requestId || '—'));
  const cost = h('dd', { 'data-testid': 'cost' }, '…');
  facts.append(h('dt', {}, 'Cost'), cost);
  costOf(requestId, cost);
}

/** The request's cost as the gateway billed it (GET /v1/generation); said plainly when this server has no such route. */
async function costOf(id, where) {
  if (!id) { where.textContent = '—'; return; }
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const answer = await get('/v1/generation?id=' + encodeURIComponent(id));
      const g = answer.data && !Array.isArray(answer.data) ? answer.data : answer;
      where.textContent = money(g.cost_usd) + (g.provenance ? ' (' + g.provenance + ')' : '');
      return;
    } catch (e) {
      if (e.missingRoute) { where.textContent = 'not available on this server'; return; }
      if (e.status !== 404) { where.textContent = e.message; return; }
      await new Promise((res) => setTimeout(res, 300)); // settlement may land a moment after the answer
    }
  }
  where.textContent = 'not recorded yet';
}

/** Server-sent events from a fetch body: {event, data} with data parsed as JSON when it is JSON. */
async function* events(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length) continue;
      const text = data.join('\n');
      if (text === '[DONE]') return;
      let parsed = text;
      try { parsed = JSON.parse(text); } catch { /* keep text */ }
      yield { event, data: parsed };
    }
  }
}

function fail(data) {
  const err = data && (data.error || (data.type === 'error' ? data.error : null));
  if (err) throw new ApiError(0, { error: err }, null);
}

function absorb(format, { event, data }, acc) {
  if (typeof data !== 'object') return;
  fail(data);
  if (format === 'chat') {
    const c = data.choices && data.choices[0];
    if (c) {
      const d = c.delta || {};
      acc.text += d.content || '';
      acc.reasoning += d.reasoning || d.reasoning_content || '';
      if (c.finish_reason) acc.finish = c.finish_reason;
    }
    if (data.usage) usage(acc, data.usage.prompt_tokens, data.usage.completion_tokens, data.usage.completion_tokens_details?.reasoning_tokens);
  } else if (format === 'messages') {
    if (data.type === 'message_start') usage(acc, data.message?.usage?.input_tokens, data.message?.usage?.output_tokens);
    if (data.type === 'content_block_delta') {
      acc.text += data.delta?.text || '';
      acc.reasoning += data.delta?.thinking || '';
    }
    if (data.type === 'message_delta') {
      if (data.delta?.stop_reason) acc.finish = data.delta.stop_reason;
      usage(acc, data.usage?.input_tokens ?? acc.usage.input, data.usage?.output_tokens);
    }
  } else if (format === 'responses') {
    if (data.type === 'response.output_text.delta') acc.text += data.delta || '';
    if (data.type === 'response.reasoning_summary_text.delta' || data.type === 'response.reasoning_text.delta') acc.reasoning += data.delta || '';
    if (data.type === 'response.completed' || data.type === 'response.incomplete' || data.type === 'response.failed') {
      const resp = data.response || {};
      acc.finish = resp.status + (resp.incomplete_details?.reason ? ' (' + resp.incomplete_details.reason + ')' : '');
      if (resp.usage) usage(acc, resp.usage.input_tokens, resp.usage.output_tokens, resp.usage.output_tokens_details?.reasoning_tokens);
      if (resp.error) throw new ApiError(0, { error: resp.error }, null);
    }
  } else if (format === 'gemini') {
    absorbGemini(data, acc);
  }
}

function absorbGemini(data, acc) {
  const c = data.candidates && data.candidates[0];
  for (const p of c?.content?.parts || []) {
    if (p.thought) acc.reasoning += p.text || ''; else acc.text += p.text || '';
  }
  if (c?.finishReason) acc.finish = c.finishReason;
  const u = data.usageMetadata;
  if (u) usage(acc, u.promptTokenCount, u.candidatesTokenCount, u.thoughtsTokenCount);
}

function absorbWhole(format, data, acc) {
  if (format === 'chat') {
    const c = data.choices?.[0] || {};
    acc.text = c.message?.content || '';
    acc.reasoning = c.message?.reasoning || c.message?.reasoning_content || '';
    acc.finish = c.finish_reason || '';
    usage(acc, data.usage?.prompt_tokens, data.usage?.completion_tokens, data.usage?.completion_tokens_details?.reasoning_tokens);
  } else if (format === 'messages') {
    for (const b of data.content || []) {
      if (b.type === 'text') acc.text += b.text;
      if (b.type === 'thinking') acc.reasoning += b.thinking;
    }
    acc.finish = data.stop_reason || '';
    usage(acc, data.usage?.input_tokens, data.usage?.output_tokens);
  } else if (format === 'responses') {
    for (const item of data.output || []) {
      if (item.type === 'message') for (const c of item.content || []) acc.text += c.text || '';
      if (item.type === 'reasoning') for (const s of item.summary || []) acc.reasoning += s.text || '';
    }
    acc.finish = data.status || '';
    usage(acc, data.usage?.input_tokens, data.usage?.output_tokens, data.usage?.output_tokens_details?.reasoning_tokens);
  } else {
    absorbGemini(data, acc);
  }
}

function usage(acc, input, output, reasoningTokens) {
  if (input !== undefined && input !== null) acc.usage.input = input;
  if (output !== undefined && output !== null) acc.usage.output = output;
  if (reasoningTokens) acc.usage.reasoning = reasoningTokens;
}
