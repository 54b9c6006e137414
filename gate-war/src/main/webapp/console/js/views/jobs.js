// An app's jobs, for its owner: schedules (cron, time zone, job handler) with the runs of its
// jobs. The job is chosen from the ones the live version registers. The app page's Jobs tab; the
// form parts here serve the Webhooks tab too (hooks.js).

import { api, seg } from '../api.js';
import { h, loading, messageLine, replace, say, setDisabled, timeElement, whileBusy } from '../dom.js';
import { LIST_WAITS, explain, waitingNote, whenBack } from '../outage.js';

const RUNS_POLL_MS = 10_000;
const ACTOR_WORDS = {
  scheduler: 'Schedule',
  'scheduler.catchup': 'Catch-up after an outage',
  webhook: 'Webhook',
};
const STATE_CLASS = {
  queued: 'queued',
  'waiting-for-cap': 'queued',
  running: 'building',
  succeeded: 'succeeded',
  failed: 'failed',
};

/** A text field with its label and hint: {input, el}. */
export function field(id, label, hint, attrs) {
  const input = h('input', { id, name: id, type: 'text', autocomplete: 'off', spellcheck: 'false', 'data-change': true, ...attrs });
  return {
    input,
    el: h('div', { class: 'field' },
      h('label', { for: id }, label),
      hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null,
      input),
  };
}

/**
 * The job field of a form (issue 20: job names were typed, and a typo was only refused on submit).
 * The jobs are the ones the live version registers, as the builder read them from its server.js
 * (GET /apps/<app>/builds/<live version> → jobs): a select of them; a sentence saying what to do
 * when there is none (no live version, or it registers no job), with the form's button disabled
 * ('no-jobs'); a text field when they are not known (the builder could not read them: the API then
 * accepts any name, with a note). The button waits ('no-jobs') while the jobs load.
 */
export function jobPicker(ctx, { id, label, hint, name, liveVersion, submit }) {
  const slot = h('div', { class: 'field', id: `${id}-field` });
  let control = null;
  setDisabled(submit, 'no-jobs', true);

  const show = (el, hintText) => {
    control = el;
    replace(slot, h('label', { for: id }, label), hintText ? h('p', { class: 'hint', id: `${id}-hint` }, hintText) : null, el);
    setDisabled(submit, 'no-jobs', false);
  };
  const none = (text) => {
    control = null;
    replace(slot, h('p', { class: 'label' }, label), h('p', { class: 'msg info', id: `${id}-none` }, text));
    setDisabled(submit, 'no-jobs', true);
  };
  const asText = (why) => show(h('input', {
    id, name: id, type: 'text', autocomplete: 'off', spellcheck: 'false', required: true, placeholder: 'digest',
    'aria-describedby': `${id}-hint`, 'data-change': true,
  }), `${why} ${hint}`);

  async function load() {
    if (liveVersion === null || liveVersion === undefined || liveVersion === '') {
      none(`${name} has no live version yet, so there is no job to choose. Deploy a build whose server.js registers one, `
        + 'e.g. app.job(\'digest\', function (ctx) { … }), then come back.');
      return;
    }
    replace(slot, h('p', { class: 'label' }, label), loading('Loading the jobs of the live version…'));
    let build;
    try {
      build = await api('GET', `/apps/${seg(name)}/builds/${seg(liveVersion)}`, undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      if (error.notAnswering) {
        replace(slot, h('p', { class: 'label' }, label),
          waitingNote('The control plane is not answering; the jobs of the live version load here when it is back.', `${id}-waiting`));
        whenBack(load, ctx.signal);
        return;
      }
      asText(`Could not load the jobs of the live version (${error.message}); type the job’s name.`);
      return;
    }
    if (ctx.signal.aborted) return;
    const jobs = build && Array.isArray(build.jobs) ? build.jobs.map(String) : null;
    if (jobs === null) {
      asText(`The jobs of the live version ${liveVersion} are not known (the builder could not read them); type the job’s name.`);
    } else if (jobs.length === 0) {
      none(`The live version ${liveVersion} registers no jobs. Add one to its server.js, e.g. `
        + 'app.job(\'digest\', function (ctx) { … }), deploy it and promote it, then come back.');
    } else {
      show(h('select', { id, name: id, required: true, 'aria-describedby': `${id}-hint`, 'data-change': true },
        jobs.map((job) => h('option', { value: job }, job))),
      `The jobs the live version ${liveVersion} registers with app.job(…).`);
    }
  }
  load();

  return {
    el: slot,
    /** The chosen or typed job name; '' when there is none to choose. */
    value: () => (control ? control.value.trim() : ''),
    /** After a submit: a typed name is cleared, a select keeps its choice. */
    clear: () => { if (control && control.tagName === 'INPUT') control.value = ''; },
  };
}

/** Copies `text` to the clipboard; when the browser refuses, selects `shown` so that Ctrl+C does it. */
export async function copyText(text, shown) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const range = document.createRange();
    range.selectNodeContents(shown);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

/** GETs `path` and renders it; while the control plane does not answer, a note in `listState` and again when it is back. */
export async function loadInto(ctx, listState, path, render, what) {
  let items;
  try {
    items = await api('GET', path, undefined, { signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted || error.handled) return;
    if (error.notAnswering) {
      replace(listState, waitingNote(LIST_WAITS, null));
      whenBack(() => loadInto(ctx, listState, path, render, what), ctx.signal);
      return;
    }
    replace(listState, h('p', { class: 'msg error', role: 'alert' }, `Could not load the ${what}. ${error.message}`));
    return;
  }
  if (ctx.signal.aborted) return;
  render(items);
}

/** The Jobs tab: schedules and recent runs; `liveVersion` is the app's live version, or null. */
export function schedulesSection(ctx, name, liveVersion) {
  const base = `/apps/${seg(name)}`;
  const line = messageLine('schedules-msg');
  const list = h('ul', { id: 'schedule-list', class: 'share-list' });
  const listState = h('div', {}, loading('Loading schedules…'));
  const runList = h('ul', { id: 'run-list', class: 'build-list' });
  const runState = h('div', {}, loading('Loading runs…'));

  const cron = field('schedule-cron', 'Cron expression', 'Five fields: minute hour day-of-month month day-of-week, e.g. “0 8 * * *” for 08:00 every day.', { placeholder: '0 * * * *', required: true });
  const zone = field('schedule-zone', 'Time zone', 'An IANA name such as Europe/Berlin; empty means UTC.', { placeholder: 'UTC' });
  const add = h('button', { type: 'submit', id: 'schedule-add', class: 'primary', 'data-change': true }, 'Add schedule');
  const job = jobPicker(ctx, { id: 'schedule-job', label: 'Job', hint: 'The name your server.js registers with app.job(\'name\', function (ctx) { … }).',
    name, liveVersion, submit: add });
  const form = h('form', { class: 'stack', novalidate: true, 'aria-label': 'Add a schedule' },
    cron.el, zone.el, job.el, h('div', { class: 'actions' }, add));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { cron: cron.input.value.trim(), job: job.value() };
    if (zone.input.value.trim()) body.zone = zone.input.value.trim();
    if (!body.cron || !body.job) {
      say(line, 'error', 'Enter a cron expression and the name of a job handler.');
      return;
    }
    say(line, 'info', '');
    whileBusy(add, 'Adding…', async () => {
      let schedule;
      try {
        schedule = await api('POST', `${base}/schedules`, body, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not add the schedule. ${explain(error)}`);
        return;
      }
      cron.input.value = '';
      zone.input.value = '';
      job.clear();
      const first = `Added. It first runs ${schedule && schedule.nextTick ? 'at the time shown below' : 'at its next tick'}.`;
      // note: the job could not be checked against the live version (none yet, or its jobs are not known)
      say(line, 'success', schedule && schedule.note ? `${first} Note: ${schedule.note}.` : first);
      loadSchedules();
    });
  });

  function scheduleItem(s) {
    const remove = h('button', { type: 'button', class: 'small danger-quiet', 'data-change': true, 'data-schedule': String(s.id),
      'aria-label': `Delete the schedule ${s.cron} (${s.zone})` }, 'Delete');
    remove.addEventListener('click', () => whileBusy(remove, 'Deleting…', async () => {
      try {
        await api('DELETE', `${base}/schedules/${seg(s.id)}`, undefined, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not delete the schedule. ${explain(error)}`);
        return;
      }
      say(line, 'success', 'Schedule deleted; its runs stay listed below.');
      loadSchedules();
    }));
    return h('li', { class: 'share-item', 'data-schedule-id': String(s.id) },
      h('span', { class: 'break' },
        h('code', {}, String(s.cron)), ` in ${s.zone} runs `, h('code', {}, String(s.job)),
        h('br'), h('small', {}, 'Next: ', s.nextTick ? timeElement(s.nextTick) : '—',
          ' · last fired: ', s.lastFiredTick ? timeElement(s.lastFiredTick) : 'not yet')),
      remove);
  }

  function loadSchedules() {
    return loadInto(ctx, listState, `${base}/schedules`, (schedules) => {
      const items = Array.isArray(schedules) ? schedules : [];
      replace(list, items.map(scheduleItem));
      if (items.length) listState.replaceChildren();
      else replace(listState, h('p', { class: 'empty', id: 'schedules-empty' }, 'No schedules yet.'));
    }, 'schedules');
  }

  function runItem(r) {
    const state = String(r.state || '');
    const log = Array.isArray(r.log) && r.log.length ? r.log.join('\n') : (state === 'succeeded' ? 'The job wrote no log.' : '…');
    return h('li', { class: 'build-item', 'data-run': String(r.id), 'data-actor': String(r.actor) },
      h('div', { class: 'build-head' },
        h('h3', { class: 'build-title' }, `Run ${r.id}: `, h('code', {}, String(r.job))),
        h('span', { class: `badge status ${STATE_CLASS[state] || ''}`.trim() }, state),
        h('span', { class: 'build-time' }, ACTOR_WORDS[r.actor] || String(r.actor), r.hook ? ` “${r.hook}”` : '', ', ',
          timeElement(r.tick))),
      h('details', { class: 'log-details' }, h('summary', {}, 'Run log'), h('pre', { class: 'log', tabindex: '0' }, log)));
  }

  function loadRuns() {
    return loadInto(ctx, runState, `${base}/runs?limit=20`, (page) => {
      const runs = page && Array.isArray(page.runs) ? page.runs : [];
      replace(runList, runs.map(runItem));
      if (runs.length) runState.replaceChildren();
      else replace(runState, h('p', { class: 'empty', id: 'runs-empty' }, 'No runs yet.'));
    }, 'runs');
  }

  let timer = null;
  const poll = async () => {
    timer = null;
    if (ctx.signal.aborted) return;
    await loadRuns();
    if (!ctx.signal.aborted) timer = setTimeout(poll, RUNS_POLL_MS);
  };
  ctx.signal.addEventListener('abort', () => { if (timer) clearTimeout(timer); });
  loadSchedules();
  poll();

  return h('section', { class: 'card', 'aria-labelledby': 'schedules-title' },
    h('h2', { id: 'schedules-title' }, 'Schedules'),
    h('p', { class: 'hint' }, 'Schedules run a job of your server.js. While Qaldy’s control plane is down nothing fires; ' +
      'when it is back, a schedule that missed ticks in the last 6 hours runs once to catch up.'),
    form,
    line,
    h('h3', { class: 'subhead' }, 'This app’s schedules'),
    listState,
    list,
    h('h3', { class: 'subhead' }, 'Recent runs'),
    runState,
    runList);
}
