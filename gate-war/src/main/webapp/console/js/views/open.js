// Opening an app on its own origin: the console asks for a one-time ticket and goes to the
// URL the API returns; the gate there redeems it and sets the app's own session cookie.
// '#/open/<app>?return=<path>' is where the gate sends people who have no session on the app.

import { api } from '../api.js';
import { h, loading, messageLine, say, safeHttpUrl, whileBusy } from '../dom.js';

/** Only a path on the app's origin: '/x?y', never '//other.host' or a full URL. */
export function safeReturnPath(value) {
  if (typeof value !== 'string' || !value.startsWith('/')) return '/';
  if (value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f]/.test(value)) return '/';
  return value;
}

/**
 * Get a ticket for the app and go there. Throws an ApiError (or Error) when it cannot.
 * leaveBehind: a console page to put in history in place of this one just before leaving.
 */
export async function openApp(app, returnPath, { signal, leaveBehind } = {}) {
  const answer = await api('POST', '/tickets', { app, returnPath: safeReturnPath(returnPath) }, { signal });
  const url = answer && safeHttpUrl(answer.url);
  if (!url) {
    throw new Error(`Qaldy did not give an address for ${app}. Please try again in a moment.`);
  }
  if (leaveBehind) history.replaceState(null, '', leaveBehind);
  location.assign(url);
}

/** True when trying again cannot help: the app does not exist or is not shared with this person. */
export function isDeadEnd(error) {
  return error.status === 403 || error.status === 404;
}

/** Plain words for a failed open, each a sentence that ends with what to do next. */
export function openFailure(app, error) {
  if (error.notAnswering) {
    return `Opening ${app} for the first time is paused for a moment. If you already use ${app}, ` +
      'its address keeps working; otherwise please try again in a minute.';
  }
  if (isDeadEnd(error)) {
    return `There is no app called ${app} that you can open. Check the address, or ask the app's owner ` +
      'to share it with the email you signed in with.';
  }
  return error.message;
}

export function openView(ctx) {
  const app = ctx.params.app;
  const returnPath = safeReturnPath(ctx.query.get('return') || '/');
  ctx.setTitle(`Opening ${app}`);

  const heading = h('h1', {}, `Opening ${app}…`);
  const body = h('div', {}, loading(`Getting you in to ${app}…`));
  ctx.main.append(h('section', { class: 'card narrow' }, heading, body));

  const attempt = async () => {
    try {
      // Leave '#/apps' behind in history, so Back from the app does not land here and reopen it.
      await openApp(app, returnPath, { signal: ctx.signal, leaveBehind: '#/apps' });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      showFailure(error);
    }
  };

  const showFailure = (error) => {
    heading.textContent = `Could not open ${app}`;
    ctx.setTitle(`Could not open ${app}`);
    const line = messageLine('open-msg');
    say(line, 'error', openFailure(app, error));
    const home = h('a', { class: 'button quiet', href: '#/apps' }, 'Go to your apps');
    if (isDeadEnd(error)) { // trying again cannot help: a way home only
      home.className = 'button primary';
      body.replaceChildren(line, h('div', { class: 'actions' }, home));
      heading.setAttribute('tabindex', '-1');
      heading.focus();
      return;
    }
    const retry = h('button', { type: 'button', id: 'open-retry', class: 'primary' }, 'Try again');
    retry.addEventListener('click', () => whileBusy(retry, 'Opening…', async () => {
      say(line, 'info', '');
      try {
        await openApp(app, returnPath, { signal: ctx.signal, leaveBehind: '#/apps' });
      } catch (again) {
        if (ctx.signal.aborted || again.handled) return;
        say(line, 'error', openFailure(app, again));
      }
    }));
    body.replaceChildren(line, h('div', { class: 'actions' }, retry, home));
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  };

  attempt();
}
