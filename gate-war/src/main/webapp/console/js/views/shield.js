// The app's shield ('#/apps/<name>/shield', owner only): lower limits than the plan's (per client,
// per app, per day), the time zone whose days the daily limit counts, and user agents and address
// ranges to block. Saved through the API
// (PUT /api/v1/apps/<app>/shield); the gates pick the change up within about 15 seconds and keep
// applying the last settings they knew while the control plane is down. Beside each limit, what the
// app's plan allows, from the gate (GET /console/plan.json?app=<name>, also during an outage).

import { api, seg } from '../api.js';
import { h, loading, messageLine, replace, say, whileBusy } from '../dom.js';
import { explain, waitingNote, whenBack } from '../outage.js';

const NUMBERS = [
  ['perClientPerMinute', 'Requests a minute per visitor', 'Each visitor’s address; empty: the plan’s limit.', 'a minute per visitor'],
  ['perAppPerMinute', 'Requests a minute for everyone', 'All visitors together; empty: the plan’s limit.', 'a minute for everyone'],
  ['perAppPerDay', 'Requests a day', 'Past it, visitors get “daily limit reached” until the next day starts; empty: the plan’s limit.', 'a day'],
];
const PLAN_URL = '/console/plan.json';
const PLAN_TIMEOUT_MS = 5_000;
const count = new Intl.NumberFormat();

/** The app's plan at the gate: {plan, perClientPerMinute, perAppPerMinute, perAppPerDay}, or null when the gate did not say. */
async function loadPlan(name, signal) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PLAN_TIMEOUT_MS);
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const response = await fetch(`${PLAN_URL}?app=${encodeURIComponent(name)}`, {
      headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin', signal: controller.signal,
    });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}
// The zone names this browser knows, offered as suggestions (the API checks the name).
const ZONES = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
const ZONE_HINT = 'The daily limit starts again at midnight in this time zone, e.g. Europe/Berlin; '
  + 'empty: the gate’s default (UTC). A change never restarts today’s count: the new zone’s days begin once today is over.';
const LISTS = [
  ['blockedUserAgents', 'Blocked user agents', 'One regular expression a line, searched in the User-Agent, e.g. (?i)curl.'],
  ['deniedCidrs', 'Blocked addresses', 'One IP address or range a line, e.g. 203.0.113.0/24.'],
];

export function shieldSection(ctx, name) {
  const state = h('div', {}, loading('Loading the shield…'));
  const line = messageLine('shield-msg');
  const inputs = {};
  const fields = [];
  const planNotes = {};
  for (const [key, label, hint] of NUMBERS) {
    inputs[key] = h('input', {
      id: `shield-${key}`, name: key, type: 'number', min: '1', step: '1', inputmode: 'numeric',
      'aria-describedby': `shield-${key}-hint shield-${key}-plan`, 'data-change': true,
    });
    planNotes[key] = h('p', { class: 'hint plan-limit', id: `shield-${key}-plan` });
    fields.push(h('div', { class: 'field' },
      h('label', { for: `shield-${key}` }, label),
      h('p', { class: 'hint', id: `shield-${key}-hint` }, hint),
      inputs[key],
      planNotes[key]));
  }
  inputs.dayZone = h('input', {
    id: 'shield-dayZone', name: 'dayZone', type: 'text', maxlength: '64', list: 'shield-dayZone-names',
    autocomplete: 'off', spellcheck: 'false', placeholder: 'UTC',
    'aria-describedby': 'shield-dayZone-hint', 'data-change': true,
  });
  fields.push(h('div', { class: 'field' },
    h('label', { for: 'shield-dayZone' }, 'Time zone of the day'),
    h('p', { class: 'hint', id: 'shield-dayZone-hint' }, ZONE_HINT),
    inputs.dayZone,
    h('datalist', { id: 'shield-dayZone-names' }, ...ZONES.map((zone) => h('option', { value: zone })))));
  for (const [key, label, hint] of LISTS) {
    inputs[key] = h('textarea', {
      id: `shield-${key}`, name: key, rows: '3', spellcheck: 'false',
      'aria-describedby': `shield-${key}-hint`, 'data-change': true,
    });
    fields.push(h('div', { class: 'field' },
      h('label', { for: `shield-${key}` }, label),
      h('p', { class: 'hint', id: `shield-${key}-hint` }, hint),
      inputs[key]));
  }
  const save = h('button', { type: 'submit', id: 'shield-save', class: 'primary', 'data-change': true }, 'Save shield');
  const form = h('form', { novalidate: true, 'aria-label': 'Shield settings', hidden: true }, ...fields,
    h('div', { class: 'actions' }, save));

  const show = (settings) => {
    for (const [key] of NUMBERS) inputs[key].value = settings[key] == null ? '' : String(settings[key]);
    for (const [key] of LISTS) inputs[key].value = (Array.isArray(settings[key]) ? settings[key] : []).join('\n');
    inputs.dayZone.value = typeof settings.dayZone === 'string' ? settings.dayZone : '';
    form.hidden = false;
    state.replaceChildren();
  };

  const read = () => {
    const body = {};
    for (const [key, label] of NUMBERS) {
      const text = inputs[key].value.trim();
      if (text === '') { body[key] = null; continue; }
      const n = Number(text);
      if (!Number.isInteger(n) || n < 1) {
        inputs[key].setAttribute('aria-invalid', 'true');
        throw new Error(`${label}: enter a whole number of at least 1, or leave it empty.`);
      }
      inputs[key].removeAttribute('aria-invalid');
      body[key] = n;
    }
    for (const [key] of LISTS) {
      body[key] = inputs[key].value.split('\n').map((s) => s.trim()).filter((s) => s !== '');
    }
    const zone = inputs.dayZone.value.trim();
    body.dayZone = zone === '' ? null : zone;
    return body;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let body;
    try {
      body = read();
    } catch (error) {
      say(line, 'error', error.message);
      return;
    }
    say(line, 'info', '');
    whileBusy(save, 'Saving…', async () => {
      let saved;
      try {
        saved = await api('PUT', `/apps/${seg(name)}/shield`, body, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not save the shield. ${explain(error)}`);
        return;
      }
      show(saved);
      say(line, 'success', 'Saved. The gates apply it within about 15 seconds.');
    });
  });

  async function showPlan() {
    const plan = await loadPlan(name, ctx.signal);
    if (ctx.signal.aborted) return;
    for (const [key, , , per] of NUMBERS) {
      const limit = plan ? Number(plan[key]) : NaN;
      if (Number.isFinite(limit) && limit > 0) {
        planNotes[key].textContent = `The ${plan.plan} plan allows ${count.format(limit)} requests ${per}; set a lower number to limit it further.`;
        inputs[key].max = String(limit);
        inputs[key].placeholder = String(limit);
      } else {
        planNotes[key].textContent = 'The plan’s limit could not be read just now; leave the field empty to keep it.';
      }
    }
  }
  showPlan();

  async function load() {
    let settings;
    try {
      settings = await api('GET', `/apps/${seg(name)}/shield`, undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      if (error.notAnswering) {
        replace(state, waitingNote('The control plane is not answering; the shield’s settings show here when it is back. '
          + 'The gates keep applying the last ones they knew.', 'shield-waiting'));
        whenBack(load, ctx.signal);
        return;
      }
      replace(state,
        h('p', { class: 'msg error', role: 'alert' }, `Could not load the shield. ${error.message}`),
        h('button', { type: 'button', class: 'small', onclick: load }, 'Try again'));
      return;
    }
    if (ctx.signal.aborted) return;
    show(settings || {});
  }
  load();

  return h('section', { class: 'card', 'aria-labelledby': 'shield-title' },
    h('h2', { id: 'shield-title' }, 'Shield'),
    h('p', {}, 'Limits lower than the app’s plan, and visitors to turn away. The gate applies them without asking '
      + 'the control plane, so they hold while it is down.'),
    state, form, line);
}
