// Billing ('#/billing'): this month's spending against the monthly cap, usage per app, and the
// form that sets the cap. Over the cap the account's apps are asleep: the gate answers with an
// "asleep" page and server code does not run, with or without the control plane.

import { api } from '../api.js';
import { h, loading, messageLine, replace, say, whileBusy } from '../dom.js';
import { explain, waitingNote, whenBack } from '../outage.js';

/**
 * The account's currency: the price list, the cap and the allowance are in US cents (the control
 * plane's PriceList), so money shows as dollars, "$12.50", never as cents (issue 20).
 */
const CURRENCY = 'USD';
const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: CURRENCY, minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** For prices and usage under a cent: up to five decimals ("$0.0001"), never fewer than two. */
const fineMoney = new Intl.NumberFormat(undefined, { style: 'currency', currency: CURRENCY, minimumFractionDigits: 2, maximumFractionDigits: 5 });
/** An amount a person types: dollars with at most two decimals ("12", "12.5", "12.50"). */
const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;

/** Cents as money: "$12.50". */
function dollars(cents) {
  return money.format((Number(cents) || 0) / 100);
}

/** Millicents (1 cent = 1000) as money with the precision they need: "$0.00123", "$12.50". */
function millicents(value) {
  return fineMoney.format((Number(value) || 0) / 100_000);
}

/** Cents as the cap field shows them: "12.50". */
function amountOf(cents) {
  return ((Number(cents) || 0) / 100).toFixed(2);
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
    id: 'billing-cap', name: 'cap', type: 'number', min: '0', step: '0.01', required: true, inputmode: 'decimal',
    'aria-describedby': 'billing-cap-hint',
  });
  const capButton = h('button', { type: 'submit', id: 'billing-cap-save', class: 'primary', 'data-change': true }, 'Set cap');
  const capLine = messageLine('billing-cap-msg');
  const capForm = h('form', { class: 'inline-form', novalidate: true, 'aria-labelledby': 'billing-cap-title' },
    h('div', { class: 'field grow' },
      h('label', { for: 'billing-cap' }, `Monthly spending cap, in ${CURRENCY === 'USD' ? 'US dollars' : CURRENCY}`),
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
      fact('Spent', millicents(view.spentMillicents), 'billing-spent'),
      fact('Cap', `${dollars(view.capCents)}${view.capIsDefault ? ', the default' : ''}`, 'billing-cap-now'),
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
    if (document.activeElement !== capInput) capInput.value = view.capCents == null ? '' : amountOf(view.capCents);
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
    if (!AMOUNT.test(text)) {
      capInput.setAttribute('aria-invalid', 'true');
      say(capLine, 'error', 'Enter an amount in dollars with at most two decimals, like 12.50 (0 or more), then set the cap again.');
      capInput.focus();
      return;
    }
    capInput.removeAttribute('aria-invalid');
    say(capLine, 'info', '');
    whileBusy(capButton, 'Saving…', async () => {
      try {
        const view = await api('PUT', '/billing/cap', { capCents: Math.round(Number(text) * 100) }, { signal: ctx.signal });
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
