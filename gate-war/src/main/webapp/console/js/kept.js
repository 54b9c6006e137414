// What the console last read from the API, kept so that an outage does not empty a page the
// person already saw (issue 20: moving to another page emptied the apps list). Kept in memory and
// in this tab's sessionStorage (the session itself is the browser's cookie, session.js), and only
// for answers named by the views that hold no secret (the app list: names, addresses, roles). Each
// tab keeps its own; every tab forgets its own when the browser signs out, in whichever tab
// (session.js), or when another person signs in.

const PREFIX = 'qaldy.kept.';
/** Whose answers this tab keeps (an email); kept apart from the answers' keys. */
const OWNER_KEY = 'qaldy.keptFor';
/** The largest answer kept, in characters of JSON: a list of thousands of apps is not kept. */
const MAX_CHARS = 200_000;

const memory = new Map();

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Keeps the API's answer to GET `path` as read now. */
export function keep(path, data) {
  const entry = { at: Date.now(), data };
  memory.set(path, entry);
  const s = storage();
  if (!s) return;
  try {
    const text = JSON.stringify(entry);
    if (text.length <= MAX_CHARS) s.setItem(PREFIX + path, text);
    else s.removeItem(PREFIX + path);
  } catch {
    // storage full or blocked: memory still has it for this page's life
  }
}

/** The answer kept for GET `path`, as { data, at: Date }, or null. */
export function kept(path) {
  let entry = memory.get(path);
  if (!entry) {
    const s = storage();
    try {
      const text = s ? s.getItem(PREFIX + path) : null;
      entry = text ? JSON.parse(text) : null;
    } catch {
      entry = null;
    }
  }
  if (!entry || typeof entry.at !== 'number') return null;
  return { data: entry.data, at: new Date(entry.at) };
}

/** The list kept for GET `path`, as { data: [...], at: Date }, or null (nothing kept, or not a list). */
export function keptList(path) {
  const last = kept(path);
  return last && Array.isArray(last.data) ? last : null;
}

/** Marks `note` (a waiting note) with when the kept answer it stands over was read. */
export function markAsOf(note, at) {
  note.dataset.asOf = at.toISOString();
  return note;
}

/** Forgets everything kept (sign-out, another person). */
export function forgetKept() {
  memory.clear();
  const s = storage();
  if (!s) return;
  try {
    for (let i = s.length - 1; i >= 0; i--) {
      const key = s.key(i);
      if (key && key.startsWith(PREFIX)) s.removeItem(key);
    }
    s.removeItem(OWNER_KEY);
  } catch {
    // blocked: memory is cleared, which is all this page has
  }
}

/** From now on this tab keeps answers for `email`: what it kept for anyone else is forgotten. Null: unknown, no change. */
export function keepFor(email) {
  if (!email) return;
  const s = storage();
  let owner = null;
  try {
    owner = s ? s.getItem(OWNER_KEY) : null;
  } catch {
    owner = null;
  }
  if (owner !== null && owner.toLowerCase() === String(email).toLowerCase()) return;
  if (owner !== null) forgetKept();
  try {
    if (s) s.setItem(OWNER_KEY, String(email));
  } catch {
    // blocked: nothing is kept in storage either
  }
}

/** "14:05" today, "3 Dec, 14:05" before: when a kept answer was read, in the person's locale. */
export function asOf(at) {
  const sameDay = at.toDateString() === new Date().toDateString();
  return sameDay
    ? at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : at.toLocaleString([], { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}
