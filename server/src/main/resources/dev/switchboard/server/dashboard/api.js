// The one way the dashboard talks to the gateway: same-origin fetch with the session cookie, the session's CSRF
// token on every call, and errors turned into ApiError (status, message, the field at fault).

let csrfToken = null;
let onSignedOut = () => {};

export function setCsrf(token) { csrfToken = token; }
export function whenSignedOut(fn) { onSignedOut = fn; }

export class ApiError extends Error {
  constructor(status, body, requestId) {
    const err = body && typeof body === 'object' ? (body.error ?? body) : null;
    const message = (err && (err.message || (typeof err === 'string' ? err : null)))
      || (status === 404 ? 'Not found.' : 'The gateway answered ' + status + '.');
    super(message);
    this.status = status;
    this.type = err && err.type;
    this.param = err && err.param;
    this.requestId = requestId;
  }
  /** The route does not exist on this server (as opposed to an unknown id). */
  get missingRoute() { return this.status === 404 && /^No route for /.test(this.message); }
}

/** Calls the gateway; answers the parsed JSON (null for 204) or throws ApiError. */
export async function api(method, path, body, extraHeaders = {}) {
  const headers = { accept: 'application/json', ...extraHeaders };
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  const init = { method, headers, credentials: 'same-origin' };
  if (body instanceof Blob) {
    headers['content-type'] = body.type || 'application/octet-stream';
    init.body = body; // a file, sent as its bytes (plugin uploads)
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, { error: { message: 'The gateway cannot be reached (' + e.message + ').' } }, null);
  }
  if (r.status === 204) return null;
  const text = await r.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!r.ok) {
    const e = new ApiError(r.status, json ?? { error: { message: text.slice(0, 300) } }, r.headers.get('x-request-id'));
    if (r.status === 401 && !path.startsWith('/auth/') && e.type === 'auth_required') onSignedOut();
    throw e;
  }
  return json;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body ?? {});
export const put = (path, body) => api('PUT', path, body);
export const del = (path) => api('DELETE', path);

/** A query string from an object, leaving out empty values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, v);
  }
  const s = q.toString();
  return s ? '?' + s : '';
}
