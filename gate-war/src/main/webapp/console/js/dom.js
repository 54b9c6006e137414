// Small DOM helpers. Data from the API only ever reaches the page as text nodes or attributes.

/**
 * Build an element.
 *   h('button', { type: 'button', class: 'primary', 'data-open': name, onclick: fn }, 'Open')
 * Attributes: 'class', 'text' (textContent), on<event> functions, boolean true/false/null
 * (present/absent), anything else via setAttribute. Children: nodes, strings, arrays; null skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Disable a control for a named reason; it is enabled again only when no reason is left.
 * Reasons used: 'busy' (its request runs), 'wait' (Retry-After), 'invalid';
 * issue 7 adds 'outage'.
 */
export function setDisabled(el, reason, on) {
  const reasons = new Set((el.dataset.disabledBy || '').split(' ').filter(Boolean));
  if (on) reasons.add(reason); else reasons.delete(reason);
  if (reasons.size) el.dataset.disabledBy = [...reasons].join(' ');
  else delete el.dataset.disabledBy;
  el.disabled = reasons.size > 0;
}

/**
 * Run fn while the button shows it is working: disabled, aria-busy, a working label.
 * Returns fn's result; a second call while one runs does nothing and returns undefined.
 */
export async function whileBusy(button, workingLabel, fn) {
  if (button.dataset.busy === '1') return undefined;
  const label = button.textContent;
  button.dataset.busy = '1';
  button.setAttribute('aria-busy', 'true');
  setDisabled(button, 'busy', true);
  if (workingLabel) button.textContent = workingLabel;
  try {
    return await fn();
  } finally {
    delete button.dataset.busy;
    button.removeAttribute('aria-busy');
    if (workingLabel) button.textContent = label;
    setDisabled(button, 'busy', false);
  }
}

/**
 * A message line for a form or section. kind: 'info' | 'success' | 'error'.
 * Created empty and kept in the page, so screen readers announce changes.
 */
export function messageLine(id) {
  return h('p', { class: 'msg', id, role: 'status', 'aria-live': 'polite' });
}

export function say(line, kind, text) {
  line.className = `msg ${kind || ''}`.trim();
  line.textContent = text || '';
}

/** A "loading" line with a quiet spinner. */
export function loading(text) {
  return h('p', { class: 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), text);
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** An ISO-8601 string or epoch milliseconds, in the person's local time. */
export function formatTime(value) {
  if (value === null || value === undefined || value === '') return '—';
  const date = typeof value === 'number' ? new Date(value) : new Date(String(value));
  return Number.isNaN(date.getTime()) ? String(value) : timeFormat.format(date);
}

/** A <time> element with a machine-readable datetime when the value parses. */
export function timeElement(value) {
  const date = typeof value === 'number' ? new Date(value) : new Date(String(value ?? ''));
  const valid = !Number.isNaN(date.getTime());
  return h('time', { datetime: valid ? date.toISOString() : null }, formatTime(value));
}

/** Only http(s) addresses become links; anything else stays text. */
export function safeHttpUrl(value) {
  try {
    const url = new URL(String(value), location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
