// Issue 7: the console says when the control plane stops answering, and waits for it calmly.
//
// Seed: "The console asks the API every 15 seconds. After two misses in a row it shows a banner:
// the control plane is not answering since a given time, apps people already opened keep working,
// and signing in, builds and changes wait."
//
// - Settings (poll interval, misses before the banner) come from the gate's
//   /console/settings.json, which answers while the API is down; without it, the defaults.
// - Every call's outcome counts (api.js reports them): a miss is a timeout, a network error or a
//   5xx; any other answer resets the count. Between calls, GET /api/v1/ping every poll interval.
// - After enough misses in a row: the banner (since the FIRST miss of the run), and every control
//   marked data-change is disabled with that reason, including controls drawn while it is down.
//   What the console already shows stays. The first answer again undoes all of it, no reload.
// - Views that could not load their data ask whenBack(load) to try again on the first answer.

import { api, onApiOutcome } from './api.js';
import { h, setDisabled, whileBusy } from './dom.js';

export const DEFAULT_SETTINGS = Object.freeze({ pollIntervalMs: 15_000, missesBeforeBanner: 2 });

const SETTINGS_URL = '/console/settings.json';
const SETTINGS_TIMEOUT_MS = 5_000;
const MAX_POLL_TIMEOUT_MS = 5_000;
const MIN_POLL_MS = 1_000;
const MAX_POLL_MS = 3_600_000;
const MAX_MISSES = 100;

const BANNER_ID = 'outage-banner';
const REASON_ID = 'outage-reason';
const CHANGE = '[data-change]';

/** Why a control that changes something is disabled while the control plane does not answer. */
export const OUTAGE_REASON =
  'The control plane is not answering, so changes wait until it is back. What is shown stays readable.';

/** For a list the console could not load because the control plane did not answer. */
export const LIST_WAITS = 'The control plane is not answering; this list will load when it is back.';

let settings = { ...DEFAULT_SETTINGS };
let misses = 0;
let firstMissAt = null; // the first miss of the current run of misses
let down = false; // the banner is up
let started = false;
let pollTimer = null;
let polling = false;
let lastPollAt = 0;
let banner = null;

const stateListeners = new Set();
const backListeners = new Map(); // fn → cleanup; one-shot, on the next answer

// ---- settings -------------------------------------------------------------------------------

/** The gate's values when they make sense; each one that does not is the default. */
export function sanitizeSettings(data) {
  const poll = Number(data && data.pollIntervalMs);
  const missCount = Number(data && data.missesBeforeBanner);
  return {
    pollIntervalMs: Number.isFinite(poll) && poll >= MIN_POLL_MS && poll <= MAX_POLL_MS
      ? Math.round(poll) : DEFAULT_SETTINGS.pollIntervalMs,
    missesBeforeBanner: Number.isInteger(missCount) && missCount >= 1 && missCount <= MAX_MISSES
      ? missCount : DEFAULT_SETTINGS.missesBeforeBanner,
  };
}

async function loadSettings() {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SETTINGS_TIMEOUT_MS);
  try {
    const response = await fetch(SETTINGS_URL, {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      credentials: 'same-origin',
      signal: controller.signal,
    });
    if (!response.ok) return { ...DEFAULT_SETTINGS };
    return sanitizeSettings(await response.json());
  } catch {
    return { ...DEFAULT_SETTINGS }; // the gate's file is not there or not JSON: the seed's values
  } finally {
    clearTimeout(timer);
  }
}

/** The settings in use (the defaults until the gate's have arrived). */
export function outageSettings() {
  return { ...settings };
}

// ---- state ----------------------------------------------------------------------------------

/** True while the banner is up: the control plane missed enough times in a row. */
export function isDown() {
  return down;
}

/** fn(down) whenever the banner comes or goes. Returns a function that stops listening. */
export function onOutageChange(fn, signal) {
  stateListeners.add(fn);
  const stop = () => stateListeners.delete(fn);
  signal?.addEventListener('abort', stop, { once: true });
  return stop;
}

/**
 * Call fn once, on the next answer from the control plane (e.g. to load what could not be
 * loaded). The same fn asked twice runs once. Forgotten when signal aborts (the person left).
 */
export function whenBack(fn, signal) {
  if (signal?.aborted || backListeners.has(fn)) return;
  const onAbort = () => backListeners.delete(fn);
  signal?.addEventListener('abort', onAbort, { once: true });
  backListeners.set(fn, () => signal?.removeEventListener('abort', onAbort));
}

/** Plain words for a failed call: the outage in calm words, anything else as the API said it. */
export function explain(error) {
  if (error && error.notAnswering) {
    return 'The control plane is not answering; try again when it is back.';
  }
  return error && error.message ? error.message : 'Something went wrong. Try again in a moment.';
}

/** A calm line for data the console cannot get right now (not an error of the person's). */
export function waitingNote(text, id) {
  return h('p', { class: 'msg waiting', id: id || null, 'data-outage-note': true }, text);
}

onApiOutcome(({ reached, at }) => {
  if (reached) answered();
  else missed(at instanceof Date ? at : new Date());
});

function missed(at) {
  if (misses === 0) firstMissAt = at;
  misses += 1;
  if (!down && misses >= settings.missesBeforeBanner) goDown();
  else if (down) updateBannerText();
}

function answered() {
  misses = 0;
  firstMissAt = null;
  if (down) goUp();
  if (backListeners.size) {
    const waiting = [...backListeners.entries()];
    backListeners.clear();
    for (const [fn, cleanup] of waiting) {
      cleanup();
      setTimeout(() => {
        try { fn(); } catch (e) { console.error(e); }
      }, 0);
    }
  }
}

function notify() {
  if (down) document.documentElement.dataset.controlPlane = 'not-answering';
  else delete document.documentElement.dataset.controlPlane;
  for (const fn of stateListeners) {
    try { fn(down); } catch (e) { console.error(e); }
  }
}

function goDown() {
  down = true;
  showBanner();
  for (const el of document.querySelectorAll(CHANGE)) holdBack(el);
  notify();
}

function goUp() {
  down = false;
  for (const el of document.querySelectorAll('[data-outage-held]')) release(el);
  hideBanner();
  tellNews('The control plane is answering again. Changes are possible again.');
  notify();
}

// ---- controls that change something ---------------------------------------------------------

function holdBack(el) {
  if (!(el instanceof HTMLElement) || el.hasAttribute('data-outage-held')) return;
  el.setAttribute('data-outage-held', '');
  if (el.hasAttribute('title')) el.dataset.outageTitle = el.getAttribute('title');
  el.setAttribute('title', OUTAGE_REASON);
  const described = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
  if (!described.includes(REASON_ID)) el.setAttribute('aria-describedby', [...described, REASON_ID].join(' '));
  setDisabled(el, 'outage', true);
}

function release(el) {
  el.removeAttribute('data-outage-held');
  if (el.dataset.outageTitle !== undefined) {
    el.setAttribute('title', el.dataset.outageTitle);
    delete el.dataset.outageTitle;
  } else {
    el.removeAttribute('title');
  }
  const described = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter((id) => id && id !== REASON_ID);
  if (described.length) el.setAttribute('aria-describedby', described.join(' '));
  else el.removeAttribute('aria-describedby');
  setDisabled(el, 'outage', false);
}

/** Controls drawn while the banner is up (a new page, a new build row) are held back at once. */
function watchNewControls() {
  const observer = new MutationObserver((records) => {
    if (!down) return;
    for (const record of records) {
      if (record.type === 'attributes') {
        if (record.target.matches?.(CHANGE)) holdBack(record.target);
        continue;
      }
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches(CHANGE)) holdBack(node);
        for (const el of node.querySelectorAll(CHANGE)) holdBack(el);
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-change'] });
}

// ---- the banner -----------------------------------------------------------------------------

const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The time of day in the person's locale and zone; with the date when it is not today. */
export function sinceText(date, now = new Date()) {
  const sameDay = date.getFullYear() === now.getFullYear()
    && date.getMonth() === now.getMonth()
    && date.getDate() === now.getDate();
  return sameDay ? timeOnly.format(date) : dayAndTime.format(date);
}

function everyText(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return seconds === 1 ? 'every second' : `every ${seconds} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? 'every minute' : `every ${minutes} minutes`;
}

function bannerMessage(since) {
  return [
    h('strong', {}, 'The control plane has not answered since ',
      h('time', { datetime: since.toISOString() }, sinceText(since)), '.'),
    ' Apps people already opened keep working. Webhook deliveries are checked and queued at the gate, and run once it is back.',
    ' Signing in, builds and changes wait until it is back.',
  ];
}

function showBanner() {
  const slot = document.getElementById('banner-slot');
  if (!slot) return;
  const since = firstMissAt || new Date();
  const reason = h('p', { id: REASON_ID, class: 'outage-message' });
  const check = h('button', { type: 'button', id: 'outage-check', class: 'small quiet' }, 'Check now');
  check.addEventListener('click', () => whileBusy(check, 'Checking…', () => poll()));
  const more = h('p', { class: 'outage-more' });
  banner = h('div', {
    id: BANNER_ID,
    class: 'outage-banner',
    role: 'status',
    'aria-live': 'polite',
    'data-since': since.toISOString(),
  }, h('div', { class: 'outage-inner' }, h('div', { class: 'outage-text' }, reason, more), check));
  tellNews('');
  slot.replaceChildren(banner);
  // A live region is announced when its content changes, not reliably when it is inserted with
  // its words already in it: insert it empty, then say it.
  const shown = banner;
  setTimeout(() => {
    if (banner !== shown) return;
    reason.replaceChildren(...bannerMessage(since));
    more.textContent = `The console checks again ${everyText(settings.pollIntervalMs)}; what it already shows stays here.`;
  }, 50);
}

function updateBannerText() {
  if (!banner) return;
  const time = banner.querySelector(`#${REASON_ID} time`);
  if (!time) return;
  const since = new Date(banner.dataset.since);
  const text = sinceText(since);
  if (time.textContent !== text) time.textContent = text; // the outage went past midnight
}

function hideBanner() {
  if (!banner) return;
  const hadFocus = banner.contains(document.activeElement);
  banner.remove();
  banner = null;
  if (hadFocus) document.getElementById('main')?.focus({ preventScroll: true });
}

/** A short word for screen readers (the banner going away is otherwise silent). */
function tellNews(text) {
  const news = document.getElementById('outage-news');
  if (news) news.textContent = text;
}

// ---- polling --------------------------------------------------------------------------------

/** Ask the control plane once now (GET /api/v1/ping); the outcome is counted like any call's. */
export async function poll() {
  if (polling) return;
  polling = true;
  clearTimeout(pollTimer);
  pollTimer = null;
  lastPollAt = Date.now();
  try {
    await api('GET', '/ping', undefined, {
      auth: false,
      timeoutMs: Math.min(settings.pollIntervalMs, MAX_POLL_TIMEOUT_MS),
    });
  } catch {
    // counted through onApiOutcome: a 4xx is an answer, a timeout, network error or 5xx a miss
  } finally {
    polling = false;
    schedule();
  }
}

function schedule() {
  clearTimeout(pollTimer);
  const wait = Math.max(0, settings.pollIntervalMs - (Date.now() - lastPollAt));
  pollTimer = setTimeout(poll, wait);
}

/** Load the settings, then ask every poll interval. Call once, when the console starts. */
export async function startOutageWatch() {
  if (started) return;
  started = true;
  watchNewControls();
  settings = await loadSettings();
  if (!down && misses >= settings.missesBeforeBanner) goDown();
  poll();
  // Hidden tabs get their timers slowed down; coming back, ask at once if a poll is overdue.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastPollAt >= settings.pollIntervalMs) poll();
  });
  window.addEventListener('online', () => poll());
}
