// The one way the console talks to the control plane. Every call goes through api().
//
// Outcomes are reported to listeners (onApiOutcome) so the outage banner (issue 7) can live
// here without touching the views: a call "missed" when there was no answer in time, a network
// error, or a 5xx; any other answer, even a 4xx, means the control plane is answering, as long as
// it is the API's JSON: every error of the API is application/problem+json, while a control plane
// that is still starting answers every path with the server's own HTML 404 for a few seconds,
// which is not the API answering. A 429 counts neither way: the gate's shield sends it for the
// API without asking the control plane, so it says nothing about whether the control plane answers.
// Controls that change something carry a data-change attribute, so one place can disable
// them all while the control plane is unreachable.
//
// The session is the browser's HttpOnly cookie (session.js), sent with every call of this origin;
// the gate hands it to the API as the Bearer token. Every call also carries X-Qaldy-CSRF: a change
// made with the cookie without it, or from another origin, is refused by the gate (403,
// dev.qaldy.gate.session.ConsoleCall), so no other site's page can make one with it.

import { clearSession, isSignedIn } from './session.js';

export const API_BASE = '/api/v1';

/** The console's proof, on every call, that it comes from its own page (the gate checks it on changes). */
export const CSRF_HEADER = 'X-Qaldy-CSRF';

const DEFAULT_TIMEOUT_MS = 10_000;

/** An error the console can show: message is always plain words, never raw JSON. */
export class ApiError extends Error {
  /**
   * @param {object} p
   * @param {'http'|'timeout'|'network'|'aborted'} p.kind
   * @param {number} [p.status] HTTP status for kind 'http'
   * @param {string} [p.title] problem title from the API
   * @param {string} [p.detail] problem detail from the API
   * @param {string} [p.type] problem type from the API
   * @param {number|null} [p.retryAfter] seconds, from Retry-After
   * @param {boolean} [p.fromApi] the answer was JSON, as every answer of the API is
   */
  constructor({ kind, status = 0, title = '', detail = '', type = '', retryAfter = null, fromApi = true }) {
    super(detail || title || fallbackMessage(kind, status, fromApi));
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.type = type;
    this.retryAfter = retryAfter;
    this.fromApi = fromApi;
    /** True when the console already acted on it (a 401 sends the person to sign-in). */
    this.handled = false;
  }

  /**
   * No answer in time, a network error, a 5xx, or an answer that is not the API's (a server
   * still starting): the control plane did not answer.
   */
  get unreachable() {
    return this.kind === 'timeout' || this.kind === 'network'
      || (this.kind === 'http' && (this.status >= 500 || !this.fromApi));
  }

  /**
   * The control plane is not answering at all, as opposed to the API failing this one request
   * with its own 500 (whose detail, with a reference, is worth showing).
   */
  get notAnswering() {
    return this.unreachable && !(this.kind === 'http' && this.status === 500 && this.fromApi);
  }

  get aborted() {
    return this.kind === 'aborted';
  }
}

function fallbackMessage(kind, status, fromApi = true) {
  switch (kind) {
    case 'timeout':
      return 'The control plane did not answer in time. Try again in a moment.';
    case 'network':
      return 'The console could not reach the control plane. Check your connection, then try again.';
    case 'aborted':
      return 'The request was cancelled.';
    default:
      break;
  }
  if (status < 500 && !fromApi) {
    return 'The control plane is not answering yet (it may be starting). Try again in a moment.';
  }
  if (status >= 500) {
    return `The control plane could not finish this (error ${status}). Try again in a moment.`;
  }
  switch (status) {
    case 400: return 'That was not accepted. Check what you entered and try again.';
    case 401: return 'You are not signed in, or your session has ended.';
    case 403: return 'You do not have permission to do that.';
    case 404: return 'Not found. It may have been deleted, or it is not shared with you.';
    case 409: return 'That conflicts with something that already exists.';
    case 413: return 'The archive is over the upload limit.';
    case 429: return 'Too many tries. Wait a moment, then try again.';
    default: return `The request failed (error ${status}).`;
  }
}

const outcomeListeners = new Set();
const signedOutListeners = new Set();

/**
 * Listen to every call's outcome: fn({ reached: boolean, at: Date, error: ApiError|null }).
 * Not told: calls cancelled by the caller, and 429s (see the top of this file).
 * Returns a function that stops listening.
 */
export function onApiOutcome(fn) {
  outcomeListeners.add(fn);
  return () => outcomeListeners.delete(fn);
}

/** Listen for "the API said our token is no good" (a 401 on a signed-in call). */
export function onSignedOut(fn) {
  signedOutListeners.add(fn);
  return () => signedOutListeners.delete(fn);
}

function report(reached, error) {
  const event = { reached, at: new Date(), error };
  for (const fn of outcomeListeners) {
    try { fn(event); } catch (e) { console.error(e); }
  }
}

function parseRetryAfter(value) {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function isBinary(body) {
  return body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

async function readJson(response) {
  const type = (response.headers.get('Content-Type') || '').toLowerCase();
  if (response.status === 204 || !type.includes('json')) return null;
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/**
 * Call the control plane.
 *
 * @param {string} method 'GET', 'POST', 'PUT', 'DELETE'
 * @param {string} path under /api/v1, e.g. '/apps' or `/apps/${encodeURIComponent(name)}/builds`
 * @param {*} [body] an object (sent as JSON), or a Blob/File (sent as is)
 * @param {object} [options]
 * @param {boolean} [options.auth=true] a call of the signed-in person: a 401 to it signs the browser out;
 *   false for sign-in, sign-up and the ping
 * @param {number} [options.timeoutMs=10000] give up after this long (counts as a miss)
 * @param {AbortSignal} [options.signal] cancel (e.g. the person left the page); not a miss
 * @param {string} [options.contentType] for a binary body, e.g. 'application/zip'
 * @param {object} [options.headers] more request headers (the sign-in's X-Qaldy-Session)
 * @returns {Promise<*>} the parsed JSON answer, or null when there is none
 * @throws {ApiError}
 */
export async function api(method, path, body, options = {}) {
  const { auth = true, timeoutMs = DEFAULT_TIMEOUT_MS, signal, contentType } = options;

  const headers = { ...(options.headers || {}), Accept: 'application/json, application/problem+json', [CSRF_HEADER]: '1' };
  let payload;
  if (body !== undefined && body !== null) {
    if (isBinary(body)) {
      headers['Content-Type'] = contentType || body.type || 'application/octet-stream';
      payload = body;
    } else {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
  }
  const signedIn = auth && isSignedIn();

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  if (signal) {
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', onCallerAbort, { once: true });
  }

  let response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers,
      body: payload,
      signal: controller.signal,
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
    if (timedOut) {
      const error = new ApiError({ kind: 'timeout' });
      report(false, error);
      throw error;
    }
    if (signal?.aborted) throw new ApiError({ kind: 'aborted' });
    const error = new ApiError({ kind: 'network' });
    report(false, error);
    throw error;
  }

  let data;
  try {
    data = await readJson(response);
  } catch {
    data = null; // a body cut off by the timeout or a cancel: judged by the status alone
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }

  if (response.ok) {
    report(true, null);
    return data;
  }

  const problem = data && typeof data === 'object' ? data : {};
  const fromApi = (response.headers.get('Content-Type') || '').toLowerCase().includes('json');
  const error = new ApiError({
    kind: 'http',
    status: response.status,
    title: typeof problem.title === 'string' ? problem.title : '',
    detail: typeof problem.detail === 'string' ? problem.detail : '',
    type: typeof problem.type === 'string' ? problem.type : '',
    retryAfter: parseRetryAfter(response.headers.get('Retry-After')),
    fromApi,
  });
  if (response.status !== 429) report(!error.unreachable, error);

  if (response.status === 401 && signedIn && !error.unreachable) {
    clearSession();
    error.handled = true;
    for (const fn of signedOutListeners) {
      try { fn(error); } catch (e) { console.error(e); }
    }
  }
  throw error;
}

/** Encode one path segment (an app name, a version, an email). */
export function seg(value) {
  return encodeURIComponent(String(value));
}
