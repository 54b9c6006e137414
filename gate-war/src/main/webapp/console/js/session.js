// The console's session: the control plane's token, kept in sessionStorage (one tab, gone
// when the tab closes). Nothing else about the person is trusted from storage.

import { forgetKept } from './kept.js';

const TOKEN_KEY = 'qaldy.token';
const EXPIRES_KEY = 'qaldy.expiresAt';
const EMAIL_KEY = 'qaldy.email';

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked: the person can still sign in, for this page only
  }
}

let memory = {}; // fallback when sessionStorage is not available

function read(key) {
  const s = storage();
  return s ? s.getItem(key) : (memory[key] ?? null);
}

function write(key, value) {
  const s = storage();
  if (value === null || value === undefined) {
    if (s) s.removeItem(key); else delete memory[key];
  } else if (s) {
    s.setItem(key, String(value));
  } else {
    memory[key] = String(value);
  }
}

/** The token, or null when there is none or it has expired. */
export function getToken() {
  const token = read(TOKEN_KEY);
  if (!token) return null;
  const expiresAt = Date.parse(read(EXPIRES_KEY) ?? '');
  if (!Number.isNaN(expiresAt) && expiresAt <= Date.now()) {
    clearSession();
    return null;
  }
  return token;
}

export function isSignedIn() {
  return getToken() !== null;
}

export function saveSession({ token, expiresAt }, email) {
  if (read(EMAIL_KEY) !== (email ?? null)) forgetKept(); // another person in this tab
  write(TOKEN_KEY, token);
  write(EXPIRES_KEY, expiresAt ?? null);
  write(EMAIL_KEY, email ?? null);
}

export function clearSession() {
  forgetKept(); // what the console read for this person goes with the session
  write(TOKEN_KEY, null);
  write(EXPIRES_KEY, null);
  write(EMAIL_KEY, null);
}

export function getEmail() {
  return read(EMAIL_KEY);
}

export function setEmail(email) {
  write(EMAIL_KEY, email);
}
