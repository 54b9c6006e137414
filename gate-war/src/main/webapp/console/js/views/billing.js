// Billing ('#/billing'): this month's spending against the monthly cap, usage per app, and the
// form that sets the cap. Over the cap the account's apps are asleep: the gate answers with an
// "asleep" page and server code does not run, with or without the control plane.

import { api } from '../api.js';
import { h, loading, messageLine, replace, say, whileBusy } from '../dom.js';
import { explain, waitingNote, whenBack } from '../outage.js';

const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 5 });

/** Cents (or millicents / 1000) as dollars. */
function dollars(cents) {
  return money.format((Number(cents) || 0) / 100);
}

function millicents(value) {
  return dollars((Number(value) || 0) / 1000);
}

export function billingView(ctx) {
  const state = h('div', { id: 'billing-state' }, loading('Loading your spending…'));
  const summary = h('dl', { id: 'billing-summary', class: 'facts', hidden: true });
  const sleeping = h('p', { id: 'billing-asleep', class: 'msg error', role: 'alert', hidden: true });
  const tbody = h('tbody');
  const table = h('table', { id: 'billing-apps', class: 'table', hidden: true },
    h('caption', { class: 'visually-hidden' }, 'Usage per app this month'),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'App'),
      h('th', { scope: 'col' }, 'Requests'),
      h('th', { scope: 'col' }, 'CPU ms'),
      h('th', { scope: 'col' }, 'Spent'))),
    tbody);

  const capInput = h('input', {
    id: 'billing-cap', name: 'capCents', type: 'number', min: '0', step: '1', required: true, inputmode: 'numeric',
    'aria-describedby': 'billing-cap-hint',
  });
  const capButton = h('button', { type: 'submit', id: 'billing-cap-save', class: 'primary', 'data-change': true }, 'Set cap');
  const capLine = messageLine('billing-cap-msg');
  const capForm = h('form', { class: 'inline-form', novalidate: true, 'aria-labelledby': 'billing-cap-title' },
    h('div', { class: 'field grow' },
      h('label', { for: 'billing-cap' }, 'Monthly spending cap, in cents'),
      h('p', { class: 'hint', id: 'billing-cap-hint' },
        'At the cap (plus the free allowance) your apps go to sleep until you raise it or the month ends. 0 allows the free allowance only.'),
      h('div', { class: 'input-row' }, capInput, capButton)),
    capLine);

  ctx.main.append(
    h('h1', {}, 'Billing'),
    h('section', { class: 'card', 'aria-labelledby': 'billing-title' },
      h('div', { class: 'section-head' },
        h('h2', { id: 'billing-title' }, 'This month'),
        h('button', { type: 'button', id: 'billing-refresh', class: 'quiet small', onclick: () => load() }, 'Refresh')),
      state, sleeping, summary,
      h('div', { class: 'table-wrap', role: 'region', 'aria-label': 'Usage per app', tabindex: '0' }, table)),
    h('section', { class: 'card', 'aria-labelledby': 'billing-cap-title' },
      h('h2', { id: 'billing-cap-title' }, 'Spending cap'),
      capForm));

  function show(view) {
    state.replaceChildren();
    const fact = (term, value, id) => [h('dt', {}, term), h('dd', { id }, value)];
    replace(summary,
      fact('Month (UTC)', view.period, 'billing-period'),
      fact('Spent', `${millicents(view.spentMillicents)} (${view.spentCents} ¢)`, 'billing-spent'),
      fact('Cap', `${dollars(view.capCents)} (${view.capCents} ¢)${view.capIsDefault ? ', the default' : ''}`, 'billing-cap-now'),
      fact('Free allowance', dollars(view.freeAllowanceCents), 'billing-allowance'),
      fact('Apps sleep at', dollars(view.limitCents), 'billing-limit'),
      fact('Prices', `${millicents(view.prices?.requestMillicents)} a request, ${millicents(view.prices?.cpuMsMillicents)} a CPU millisecond`,
        'billing-prices'));
    summary.hidden = false;
    sleeping.hidden = !view.asleep;
    sleeping.textContent = view.asleep
      ? `Your apps are asleep: the spending cap was reached. Raise the cap to wake them, or wait for the new month (${view.nextPeriodStarts}).`
      : '';
    const apps = Array.isArray(view.apps) ? view.apps : [];
    replace(tbody, apps.map((a) => h('tr', {},
      h('td', { class: 'break', 'data-label': 'App' }, a.app ?? '—'),
      h('td', { 'data-label': 'Requests' }, String(a.requests ?? 0)),
      h('td', { 'data-label': 'CPU ms' }, String(a.cpuMs ?? 0)),
      h('td', { 'data-label': 'Spent' }, millicents(a.spentMillicents)))));
    table.hidden = apps.length === 0;
    if (document.activeElement !== capInput) capInput.value = String(view.capCents ?? '');
  }

  async function load() {
    replace(state, loading('Loading your spending…'));
    let view;
    try {
      view = await api('GET', '/billing', undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      if (error.notAnswering) {
        replace(state, waitingNote('The control plane is not answering; your spending will load when it is back. '
          + 'Apps still go to sleep at the cap meanwhile.', 'billing-waiting'));
        whenBack(load, ctx.signal);
        return;
      }
      replace(state, h('p', { class: 'msg error', role: 'alert' }, `Could not load your spending. ${error.message}`));
      return;
    }
    if (ctx.signal.aborted) return;
    show(view);
  }

  capForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = capInput.value.trim();
    if (!/^\d{1,9}$/.test(text)) {
      capInput.setAttribute('aria-invalid', 'true');
      say(capLine, 'error', 'Enter a whole number of cents, 0 or more.');
      capInput.focus();
      return;
    }
    capInput.removeAttribute('aria-invalid');
    say(capLine, 'info', '');
    whileBusy(capButton, 'Saving…', async () => {
      try {
        const view = await api('PUT', '/billing/cap', { capCents: Number(text) }, { signal: ctx.signal });
        show(view);
        say(capLine, 'success', view.asleep
          ? 'Saved. Your apps stay asleep: usage is still at or over the new cap.'
          : 'Saved. Apps that were asleep wake within about 15 seconds.');
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        if (error.status === 400) capInput.setAttribute('aria-invalid', 'true');
        say(capLine, 'error', explain(error));
      }
    });
  });

  load();
}
