// The audit log ('#/audit'): the latest changes, newest first, in the person's local time.
// GET /api/v1/audit?limit=N[&before=<id>] answers {entries: [{id, at, actor, action, app, target}], nextBefore}
// (nextBefore: the id to ask before for older entries, null when there are none).

import { api } from '../api.js';
import { h, loading, replace, timeElement } from '../dom.js';
import { LIST_WAITS, waitingNote, whenBack } from '../outage.js';

const LIMIT = 100;

function byTimeDesc(a, b) {
  return (Date.parse(b.at ?? '') || 0) - (Date.parse(a.at ?? '') || 0);
}

function row(e) {
  const on = e.app && e.target && e.target !== e.app ? `${e.app}: ${e.target}` : (e.target || e.app || '—');
  return h('tr', {},
    h('td', { class: 'nowrap', 'data-label': 'Time' }, e.at ? timeElement(e.at) : '—'),
    h('td', { class: 'break', 'data-label': 'Who' }, e.actor ?? '—'),
    h('td', { 'data-label': 'What' }, e.action ?? '—'),
    h('td', { class: 'break', 'data-label': 'On' }, on));
}

export function auditView(ctx) {
  const state = h('div', { id: 'audit-state' }, loading('Loading the audit log…'));
  const tbody = h('tbody');
  const table = h('table', { id: 'audit-table', class: 'table', 'aria-busy': 'true', hidden: true },
    h('caption', { class: 'visually-hidden' }, `The latest ${LIMIT} changes, newest first`),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Time'),
      h('th', { scope: 'col' }, 'Who'),
      h('th', { scope: 'col' }, 'What'),
      h('th', { scope: 'col' }, 'On'))),
    tbody);
  const refresh = h('button', { type: 'button', id: 'audit-refresh', class: 'quiet small' }, 'Refresh');
  const older = h('button', { type: 'button', id: 'audit-older', class: 'quiet small', hidden: true }, 'Show older changes');
  let nextBefore = null;

  ctx.main.append(
    h('h1', {}, 'Audit log'),
    h('section', { class: 'card', 'aria-labelledby': 'audit-title' },
      h('div', { class: 'section-head' },
        h('h2', { id: 'audit-title' }, `Latest ${LIMIT} changes`),
        refresh),
      h('p', { class: 'hint' },
        'Sign-ins, apps created and deleted, builds, promotions, sharing and revoking — who did it and when (your local time).'),
      state,
      h('div', { class: 'table-wrap', role: 'region', 'aria-label': 'Audit log entries', tabindex: '0' }, table),
      older));

  // more: false loads the newest page again (replacing the rows), true appends the page before the last row shown.
  const load = async (more = false) => {
    refresh.disabled = true;
    older.disabled = true;
    table.setAttribute('aria-busy', 'true');
    if (!more) replace(state, loading('Loading the audit log…'));
    let page;
    try {
      const before = more && nextBefore != null ? `&before=${encodeURIComponent(nextBefore)}` : '';
      page = await api('GET', `/audit?limit=${LIMIT}${before}`, undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      refresh.disabled = false;
      older.disabled = false;
      table.setAttribute('aria-busy', 'false');
      if (error.notAnswering) {
        // Entries already shown stay; the log loads again on the control plane's first answer.
        replace(state, waitingNote(tbody.children.length
          ? 'The control plane is not answering; this list will refresh when it is back.'
          : LIST_WAITS, 'audit-waiting'));
        whenBack(() => load(), ctx.signal);
        return;
      }
      replace(state, h('p', { class: 'msg error', role: 'alert' }, `Could not load the audit log. ${error.message}`));
      return;
    }
    if (ctx.signal.aborted) return;
    refresh.disabled = false;
    older.disabled = false;
    table.setAttribute('aria-busy', 'false');
    const entries = (Array.isArray(page?.entries) ? page.entries : []).slice().sort(byTimeDesc);
    nextBefore = page?.nextBefore ?? null;
    older.hidden = nextBefore == null;
    if (more) {
      tbody.append(...entries.map(row));
      return;
    }
    replace(tbody, entries.map(row));
    table.hidden = entries.length === 0;
    if (entries.length === 0) {
      replace(state, h('p', { class: 'empty', id: 'audit-empty' }, 'Nothing recorded yet. Changes to your apps will show here.'));
    } else {
      state.replaceChildren();
    }
  };
  refresh.addEventListener('click', () => load());
  older.addEventListener('click', () => load(true));
  load();
}
