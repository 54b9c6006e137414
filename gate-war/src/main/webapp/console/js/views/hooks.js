// An app's webhooks, for its owner: create one (its secret is shown once, with a copy button), send
// it a test delivery, see its latest deliveries, roll its secret (the previous one stays accepted
// for a while the owner picks, so senders switch without a gap) and delete it. While the control
// plane is down, the gate checks signed deliveries itself and keeps them until it is back (issue 17):
// what waits at this gate comes from the gate (GET /console/edge-hooks.json?app=<name>), also
// during the outage, which is when it matters. The app page's Webhooks tab.

import { api, seg } from '../api.js';
import { h, loading, messageLine, replace, say, timeElement, whileBusy } from '../dom.js';
import { LIST_WAITS, explain, isDown, onOutageChange, waitingNote, whenBack } from '../outage.js';
import { copyText, field, jobPicker, loadInto } from './jobs.js';

const EDGE_URL = '/console/edge-hooks.json';
const EDGE_TIMEOUT_MS = 5_000;
/** How often what waits at the gate is read again while the control plane is down. */
const EDGE_POLL_MS = 10_000;
/** How long the previous secret stays accepted after a roll: [seconds, words]. */
const KEEP_PREVIOUS = [[86_400, 'for 24 hours'], [3_600, 'for 1 hour'], [259_200, 'for 3 days'], [604_800, 'for 7 days'], [0, 'no longer: stop it now']];
const count = new Intl.NumberFormat();

/** What waits at this gate: [{hook, waiting, oldestReceivedAt}], or null when the gate did not say. */
async function loadWaiting(name, signal) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), EDGE_TIMEOUT_MS);
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const response = await fetch(`${EDGE_URL}?app=${encodeURIComponent(name)}`, {
      headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin', signal: controller.signal,
    });
    if (!response.ok) return null;
    const data = await response.json();
    return Array.isArray(data.hooks) ? data.hooks : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

/** The block saying which deliveries wait at this gate; kept up to date while the control plane is down. */
function edgeWaiting(ctx, name) {
  const box = h('div', { id: 'hooks-edge', class: 'stack', 'aria-live': 'polite' });
  let timer = null;
  async function refresh() {
    clearTimeout(timer);
    const waiting = await loadWaiting(name, ctx.signal);
    if (ctx.signal.aborted) return;
    if (waiting === null) {
      replace(box, isDown() ? h('p', { class: 'hint' }, 'This gate did not say which deliveries wait here; the console asks again in a moment.') : []);
    } else if (waiting.length === 0) {
      replace(box, isDown() ? h('p', { class: 'hint', id: 'hooks-edge-none' }, 'No webhook deliveries wait at this gate.') : []);
    } else {
      replace(box,
        h('h3', { class: 'subhead' }, 'Waiting at the edge'),
        h('ul', { class: 'share-list', id: 'hooks-edge-list' }, waiting.map((w) => h('li', { 'data-edge-waiting': String(w.hook), 'data-count': String(w.waiting) },
          h('strong', {}, `“${w.hook}”`), `: ${count.format(w.waiting)} ${w.waiting === 1 ? 'delivery waits' : 'deliveries wait'} at this gate since `,
          timeElement(w.oldestReceivedAt), '. ',
          isDown() ? (w.waiting === 1 ? 'It was checked and answered 202; it runs once the control plane is back.'
            : 'Each was checked and answered 202; each runs once the control plane is back.')
            : 'The gate is handing them over now; each runs once.'))));
    }
    if (isDown() || (waiting && waiting.length)) timer = setTimeout(refresh, EDGE_POLL_MS);
  }
  ctx.signal.addEventListener('abort', () => clearTimeout(timer));
  onOutageChange(() => refresh(), ctx.signal);
  refresh();
  return { el: box, refresh };
}

/** The new secret, shown once, with its address and a copy button; `more` is a line under the headline, or null. */
function secretShown(box, hook, headline, more) {
  const secret = String(hook.secret);
  const secretCode = h('code', { class: 'break', id: 'hook-secret-value' }, secret);
  const copyLine = messageLine('hook-secret-copy-msg');
  // Not data-change: copying changes nothing, so it stays usable during an outage.
  const copy = h('button', { type: 'button', id: 'hook-secret-copy', class: 'small' }, 'Copy secret');
  copy.addEventListener('click', async () => {
    const copied = await copyText(secret, secretCode);
    say(copyLine, copied ? 'success' : 'info', copied
      ? 'Copied the secret. Paste it where the sender keeps its secrets.'
      : 'The browser did not let the console copy it; the secret is selected, so press Ctrl+C (⌘C on a Mac).');
  });
  replace(box,
    h('p', { class: 'msg success' }, headline),
    more,
    h('dl', { class: 'facts' },
      h('dt', {}, 'Address'), h('dd', {}, h('code', { class: 'break' }, String(hook.url))),
      h('dt', {}, 'Secret'), h('dd', {}, secretCode, ' ', copy)),
    copyLine,
    h('p', { class: 'hint' }, 'Senders POST to the address with the header Qaldy-Signature: t=<unix seconds>,v1=<hex of ' +
      'HMAC-SHA256 of "<t>.<raw body>" with this secret>, signed when sent (a timestamp more than 5 minutes off is ' +
      'refused), and an Idempotency-Key to make retries safe.'));
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

/** The Webhooks tab; `liveVersion` is the app's live version, or null. */
export function hooksSection(ctx, name, liveVersion) {
  const base = `/apps/${seg(name)}`;
  const line = messageLine('hooks-msg');
  const list = h('ul', { id: 'hook-list', class: 'share-list' });
  const listState = h('div', {}, loading('Loading webhooks…'));
  const secretBox = h('div', { id: 'hook-secret', class: 'stack', hidden: true });
  const edge = edgeWaiting(ctx, name);

  const hookName = field('hook-name', 'Name', 'Lower-case letters, digits and “-”; it is part of the webhook’s address.', { placeholder: 'deploy', required: true });
  const create = h('button', { type: 'submit', id: 'hook-create', class: 'primary', 'data-change': true }, 'Create webhook');
  const job = jobPicker(ctx, { id: 'hook-job', label: 'Job', hint: 'The app.job(…) that each delivery runs.', name, liveVersion, submit: create });
  const form = h('form', { class: 'stack', novalidate: true, 'aria-label': 'Create a webhook' },
    hookName.el, job.el, h('div', { class: 'actions' }, create));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { name: hookName.input.value.trim(), job: job.value() };
    if (!body.name || !body.job) {
      say(line, 'error', 'Enter a name and the name of a job handler.');
      return;
    }
    say(line, 'info', '');
    whileBusy(create, 'Creating…', async () => {
      let hook;
      try {
        hook = await api('POST', `${base}/hooks`, body, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not create the webhook. ${explain(error)}`);
        return;
      }
      hookName.input.value = '';
      job.clear();
      secretShown(secretBox, hook, `Created “${hook.name}”. Copy its secret now: it is not shown again.`,
        hook.note ? h('p', { class: 'hint' }, `Note: ${hook.note}.`) : null);
      loadHooks();
    });
  });

  function rollControls(hk) {
    const hookPath = `${base}/hooks/${seg(hk.name)}`;
    const id = `hook-keep-${hk.name}`;
    const keep = h('select', { id, 'data-change': true }, KEEP_PREVIOUS.map(([seconds, words]) => h('option', { value: String(seconds) }, words)));
    const roll = h('button', { type: 'button', class: 'small', 'data-change': true, 'data-roll-hook': String(hk.name),
      'aria-label': `Roll the secret of the webhook ${hk.name}` }, 'Roll secret');
    roll.addEventListener('click', () => whileBusy(roll, 'Rolling…', async () => {
      let hook;
      try {
        hook = await api('POST', `${hookPath}/roll-secret`, { keepPreviousForSeconds: Number(keep.value) }, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not roll the secret. ${explain(error)}`);
        return;
      }
      secretShown(secretBox, hook, `Rolled the secret of “${hook.name}”. Copy the new one now: it is not shown again.`,
        hook.previousSecretUntil
          ? h('p', { class: 'hint', id: 'hook-previous-until' }, 'Deliveries signed with the previous secret are accepted until ',
            timeElement(hook.previousSecretUntil), '; switch your senders to the new one before then.')
          : h('p', { class: 'hint', id: 'hook-previous-until' }, 'The previous secret is no longer accepted.'));
      loadHooks();
    }));
    return h('details', { class: 'log-details' }, h('summary', {}, 'Roll the secret'),
      h('p', { class: 'hint' }, 'A new secret, shown once. Senders signing with the previous one keep being accepted for the time you pick, ' +
        'so you can switch them over without a refused delivery.'),
      h('div', { class: 'input-row' }, h('label', { for: id }, 'Accept the previous secret '), keep, roll));
  }

  function hookItem(hk) {
    const hookPath = `${base}/hooks/${seg(hk.name)}`;
    const deliveries = h('ul', { class: 'delivery-list', 'data-deliveries': String(hk.name) });
    const deliveriesState = h('div', {});
    const testLine = messageLine(null);
    testLine.dataset.testMsg = String(hk.name);
    const test = h('button', { type: 'button', class: 'small', 'data-change': true, 'data-test-hook': String(hk.name),
      'aria-label': `Send a test delivery to the webhook ${hk.name}` }, 'Send a test delivery');

    const deliveryItem = (d) => h('li', { class: 'delivery-item', 'data-delivery': String(d.deliveryId), 'data-test': d.test ? 'true' : 'false' },
      timeElement(d.receivedAt), ' · ', d.test ? h('strong', {}, 'Test delivery') : 'Delivery',
      ` · ${d.bodyBytes} bytes · `,
      d.runId == null ? 'no run' : `run ${d.runId}${d.runState ? ` ${d.runState}` : ''}`);

    async function loadDeliveries() {
      let items;
      try {
        items = await api('GET', `${hookPath}/deliveries?limit=10`, undefined, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        if (error.notAnswering) {
          replace(deliveriesState, waitingNote(LIST_WAITS, null));
          whenBack(loadDeliveries, ctx.signal);
          return;
        }
        replace(deliveriesState, h('p', { class: 'msg error', role: 'alert' }, `Could not load the deliveries. ${error.message}`));
        return;
      }
      if (ctx.signal.aborted) return;
      const list = Array.isArray(items) ? items : [];
      replace(deliveries, list.map(deliveryItem));
      replace(deliveriesState, list.length ? [] : h('p', { class: 'empty' }, 'No deliveries yet. Send a test delivery to see one arrive.'));
    }

    // A delivery's run finishes a moment after it is recorded: look again a few times, then stop.
    let refreshes = 0;
    let refreshTimer = null;
    const refreshSoon = () => {
      clearTimeout(refreshTimer);
      refreshes = 0;
      const again = async () => {
        if (ctx.signal.aborted) return;
        await loadDeliveries();
        refreshes += 1;
        const pending = [...deliveries.querySelectorAll('[data-delivery]')].some((li) => /run \d+ (queued|running|waiting-for-cap)$/.test(li.textContent));
        if (pending && refreshes < 40) refreshTimer = setTimeout(again, 1500); // a minute at most
      };
      again();
    };
    ctx.signal.addEventListener('abort', () => clearTimeout(refreshTimer));

    test.addEventListener('click', () => whileBusy(test, 'Sending…', async () => {
      say(testLine, 'info', '');
      try {
        await api('POST', `${hookPath}/test`, undefined, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(testLine, 'error', `Could not send a test delivery. ${explain(error)}`);
        return;
      }
      say(testLine, 'success', `Sent a test delivery to “${hk.name}”, signed with its secret: it runs ${hk.job} and shows below.`);
      refreshSoon();
    }));

    const remove = h('button', { type: 'button', class: 'small danger-quiet', 'data-change': true, 'data-hook': String(hk.name),
      'aria-label': `Delete the webhook ${hk.name}` }, 'Delete');
    remove.addEventListener('click', () => whileBusy(remove, 'Deleting…', async () => {
      try {
        await api('DELETE', `${base}/hooks/${seg(hk.name)}`, undefined, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not delete the webhook. ${explain(error)}`);
        return;
      }
      say(line, 'success', `Deleted “${hk.name}”; deliveries to it now get 404.`);
      loadHooks();
    }));
    loadDeliveries();
    return h('li', { class: 'hook-item', 'data-hook-name': String(hk.name) },
      h('div', { class: 'share-item' },
        h('span', { class: 'break' }, h('strong', {}, String(hk.name)), ' runs ', h('code', {}, String(hk.job)),
          h('br'), h('small', {}, h('code', {}, String(hk.url))),
          hk.previousSecretUntil ? h('small', { class: 'hint', 'data-previous-until': String(hk.name) }, h('br'),
            'The previous secret is accepted until ', timeElement(hk.previousSecretUntil), '.') : null),
        h('span', { class: 'input-row' }, test, remove)),
      testLine,
      rollControls(hk),
      h('details', { class: 'log-details', open: true }, h('summary', {}, 'Latest deliveries'), deliveriesState, deliveries));
  }

  function loadHooks() {
    return loadInto(ctx, listState, `${base}/hooks`, (hooks) => {
      const items = Array.isArray(hooks) ? hooks : [];
      replace(list, items.map(hookItem));
      if (items.length) listState.replaceChildren();
      else replace(listState, h('p', { class: 'empty', id: 'hooks-empty' }, 'No webhooks yet.'));
      edge.refresh();
    }, 'webhooks');
  }
  loadHooks();

  return h('section', { class: 'card', 'aria-labelledby': 'hooks-title' },
    h('h2', { id: 'hooks-title' }, 'Webhooks'),
    h('p', { class: 'hint' }, 'Each signed delivery runs a job once. While the control plane is down, the gate checks signed ' +
      'deliveries itself, keeps them (202 with "queued": true) and hands them over when it is back; a delivery to a webhook the ' +
      'gate has not learned yet gets 503 with Retry-After, and the sender retries.'),
    edge.el,
    form,
    line,
    secretBox,
    h('h3', { class: 'subhead' }, 'This app’s webhooks'),
    listState,
    list);
}
