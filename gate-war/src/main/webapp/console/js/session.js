// The console's session (issue 20 item 4): one per browser, as on Heroku or Vercel, not one per tab.
//
// The session token lives in the gate's cookie on this origin (qaldy_console: HttpOnly, SameSite=
// Strict, Path=/, host-only, as long as the token; dev.qaldy.gate.session.ConsoleCookie). No
// script of the page can read it, so an injected script cannot carry it away, and every tab of the
// browser sends it. Why not the token in localStorage: any script running on the page (one XSS)
// could read it and use it from anywhere until it expires; the cookie can only be used from a page
// of this origin, and every change it makes needs the X-Qaldy-CSRF header (api.js) the gate checks.
//
// What the tabs share here, in localStorage, is only a note that this browser is signed in: the
// email and when the session ends, no secret. It lets a new tab show the console at once, and its
// 'storage' event tells every other tab at once when it is signed out (or in, or as someone else):
// they show the sign-in and forget what they kept of the API's answers (kept.js). Should the note
// outlive the cookie (it expired, the gate cleared it), the first call gets a 401 and api.js signs
// the tab out, which tells the others.

import { forgetKept, keepFor } from './kept.js';

const NOTE_KEY = 'qaldy.session';
/** What an earlier console kept in each tab's sessionStorage, the token included: removed on sight. */
const OLD_TAB_KEYS = ['qaldy.token', 'qaldy.expiresAt', 'qaldy.email'];

function shared() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked: signed in for this page only, and other tabs learn of a sign-out at their next call
  }
}

let memory = null; // the note when localStorage is not available

function readNote() {
  const s = shared();
  let text = memory;
  try {
    if (s) text = s.getItem(NOTE_KEY);
  } catch {
    text = memory;
  }
  return parseNote(text);
}

function parseNote(text) {
  if (!text) return null;
  try {
    const note = JSON.parse(text);
    return note && typeof note === 'object' ? note : null;
  } catch {
    return null;
  }
}

function writeNote(note) {
  const text = note ? JSON.stringify(note) : null;
  memory = text;
  const s = shared();
  if (!s) return;
  try {
    if (text) s.setItem(NOTE_KEY, text); else s.removeItem(NOTE_KEY);
  } catch {
    // storage full or blocked: this tab still knows (memory)
  }
}

function expired(note) {
  const at = Date.parse(note.expiresAt ?? '');
  return !Number.isNaN(at) && at <= Date.now();
}

/** True while this browser holds a console session that has not expired (as far as the tabs know). */
export function isSignedIn() {
  const note = readNote();
  if (!note) return false;
  if (expired(note)) {
    clearSession();
    return false;
  }
  return true;
}

/**
 * After a sign-in: the gate has set the cookie; the note tells every tab. `session` is the gate's
 * answer, { expiresAt }; what this tab kept for another person is forgotten.
 */
export function saveSession({ expiresAt }, email) {
  keepFor(email ?? null);
  writeNote({ email: email ?? null, expiresAt: expiresAt ?? null });
}

/**
 * Signed out in this browser: every tab is told (a 'storage' event) and forgets what it kept.
 * The cookie itself is cleared by the gate (sign-out, or the 401 to a token it no longer takes).
 */
export function clearSession() {
  forgetKept();
  writeNote(null);
}

export function getEmail() {
  return readNote()?.email ?? null;
}

export function setEmail(email) {
  const note = readNote();
  if (note) writeNote({ ...note, email });
}

/**
 * fn({ signedIn, email, wasSignedIn }) when another tab signs in, signs out, or signs in as another
 * person; not when it only fills in the email of the same session. This tab's kept answers are
 * forgotten first when the session ended or changed hands.
 */
export function onSessionChange(fn) {
  window.addEventListener('storage', (event) => {
    if (event.key !== NOTE_KEY && event.key !== null) return; // null: the whole storage was cleared
    const old = parseNote(event.oldValue);
    const now = event.key === null ? null : parseNote(event.newValue);
    memory = now ? JSON.stringify(now) : null;
    const wasSignedIn = old !== null;
    const signedIn = now !== null && !expired(now);
    const email = signedIn ? (now.email ?? null) : null;
    const before = old?.email ?? null;
    if (!signedIn) forgetKept();
    else keepFor(email);
    if (signedIn && wasSignedIn && (before === null || email === null || before === email)) return;
    try { fn({ signedIn, email, wasSignedIn }); } catch (e) { console.error(e); }
  });
}

/** At start: drop what an earlier console kept per tab, and what this tab kept for nobody or someone else. */
export function startSession() {
  try {
    for (const key of OLD_TAB_KEYS) window.sessionStorage.removeItem(key);
  } catch {
    // no sessionStorage: nothing was kept there
  }
  if (isSignedIn()) keepFor(getEmail());
  else forgetKept();
}
