// The app list and the "create an app" form ('#/apps'; '#/new' is the same page, focused on the form).

import { api, seg } from '../api.js';
import { h, loading, messageLine, replace, safeHttpUrl, say, whileBusy } from '../dom.js';
import { navigate, flash } from '../router.js';
import { openApp, openFailure } from './open.js';
import { LIST_WAITS, explain, waitingNote, whenBack } from '../outage.js';
import { asOf, keep, keptList, markAsOf } from '../kept.js';

export function appsView(ctx) {
  const list = h('ul', { id: 'app-list', class: 'app-list', 'aria-labelledby': 'list-title', 'aria-busy': 'true' });
  const listState = h('div', { id: 'app-list-state' }, loading('Loading your apps…'));

  const nameInput = h('input', {
    id: 'new-app-name',
    name: 'name',
    type: 'text',
    required: true,
    autocomplete: 'off',
    autocapitalize: 'none',
    spellcheck: 'false',
    maxlength: '63',
    'aria-describedby': 'new-app-hint',
  });
  const siteInput = h('input', { id: 'new-app-site', name: 'site', type: 'checkbox', 'aria-describedby': 'new-app-site-hint' });
  const createButton = h('button', { type: 'submit', id: 'create-app', class: 'primary', 'data-change': true }, 'Create app');
  const createLine = messageLine('create-msg');
  const createForm = h('form', { class: 'inline-form', novalidate: true, 'aria-labelledby': 'create-title' },
    h('div', { class: 'field grow' },
      h('label', { for: 'new-app-name' }, 'App name'),
      h('p', { class: 'hint', id: 'new-app-hint' },
        'Lower-case letters, digits and hyphens, like “guestbook” or “team-notes”. It becomes part of the app’s web address.'),
      h('div', { class: 'input-row' }, nameInput, createButton),
      h('label', { for: 'new-app-site' }, siteInput, ' Public site'),
      h('p', { class: 'hint', id: 'new-app-site-hint' },
        'Static files anyone can open without signing in, like a homepage or docs. You can change this later.')),
    createLine);

  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (!name) {
      nameInput.setAttribute('aria-invalid', 'true');
      say(createLine, 'error', 'Enter a name for the app.');
      nameInput.focus();
      return;
    }
    nameInput.removeAttribute('aria-invalid');
    say(createLine, 'info', '');
    whileBusy(createButton, 'Creating…', async () => {
      try {
        await api('POST', '/apps', { name, kind: siteInput.checked ? 'site' : 'app' }, { signal: ctx.signal });
        flash(`Created ${name}. Upload a build to put it live.`);
        navigate(`#/apps/${seg(name)}`);
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        if (error.status === 400 || error.status === 409) nameInput.setAttribute('aria-invalid', 'true');
        if (error.status === 409 && !error.detail) {
          say(createLine, 'error', `The name “${name}” is taken. Choose another.`);
        } else {
          say(createLine, 'error', explain(error));
        }
        nameInput.focus();
      }
    });
  });

  ctx.main.append(
    h('h1', { id: 'apps-title' }, 'Your apps'),
    h('section', { class: 'card', 'aria-labelledby': 'list-title' },
      h('div', { class: 'section-head' },
        h('h2', { id: 'list-title' }, 'Apps you can open'),
        h('button', { type: 'button', id: 'apps-refresh', class: 'quiet small', onclick: () => load() }, 'Refresh')),
      listState,
      list),
    h('section', { class: 'card', 'aria-labelledby': 'create-title' },
      h('h2', { id: 'create-title' }, 'Create an app'),
      createForm));

  if (ctx.focusCreate) {
    ctx.skipFocus = true;
    nameInput.focus();
    nameInput.scrollIntoView({ block: 'center' });
  }

  async function load() {
    list.setAttribute('aria-busy', 'true');
    replace(listState, loading('Loading your apps…'));
    let apps;
    try {
      apps = await api('GET', '/apps', undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      list.setAttribute('aria-busy', 'false');
      if (error.notAnswering) {
        // What the list already showed stays, or what this tab last read; it loads again on the first answer.
        const last = list.children.length ? null : keptList('/apps');
        if (last) show(last.data);
        const note = waitingNote(last
          ? `The control plane is not answering; these are your apps as of ${asOf(last.at)}, and the list will refresh when it is back.`
          : list.children.length
            ? 'The control plane is not answering; this list will refresh when it is back.'
            : LIST_WAITS, 'apps-waiting');
        replace(listState, last ? markAsOf(note, last.at) : note);
        whenBack(load, ctx.signal);
        return;
      }
      list.replaceChildren();
      replace(listState,
        h('p', { class: 'msg error', role: 'alert' }, `Could not load your apps. ${error.message}`),
        h('button', { type: 'button', class: 'small', onclick: () => load() }, 'Try again'));
      return;
    }
    if (ctx.signal.aborted) return;
    apps = Array.isArray(apps) ? apps : [];
    keep('/apps', apps);
    show(apps);
  }

  /** Shows `apps` (the API's list, or the one this tab kept). */
  function show(apps) {
    apps = [...apps].sort((a, b) => String(a.name).localeCompare(String(b.name)));
    list.setAttribute('aria-busy', 'false');
    if (apps.length === 0) {
      replace(listState,
        h('p', { class: 'empty', id: 'apps-empty' }, 'No apps yet — ',
          h('a', {
            href: '#/new',
            onclick: (event) => {
              event.preventDefault();
              nameInput.scrollIntoView({ block: 'center' });
              nameInput.focus();
            },
          }, 'create one'),
          '.'));
      list.replaceChildren();
      return;
    }
    listState.replaceChildren();
    replace(list, apps.map((app) => appItem(app, ctx)));
  }

  load();
}

function appItem(app, ctx) {
  const name = String(app.name);
  const owner = app.role === 'owner';
  const live = app.liveVersion !== null && app.liveVersion !== undefined && app.liveVersion !== '';
  const url = safeHttpUrl(app.url);
  const line = messageLine(null);

  const openButton = h('button', {
    type: 'button',
    class: 'primary',
    'data-open': name,
    disabled: !live,
    'aria-describedby': live ? null : `not-live-${name}`,
  }, 'Open');
  openButton.addEventListener('click', () => whileBusy(openButton, 'Opening…', async () => {
    say(line, 'info', '');
    try {
      await openApp(name, '/', { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      say(line, 'error', `Could not open ${name}. ${openFailure(name, error)}`);
    }
  }));

  return h('li', { class: 'app-item', 'data-app': name },
    h('div', { class: 'app-main' },
      h('h3', { class: 'app-name' },
        owner ? h('a', { href: `#/apps/${seg(name)}` }, name) : name),
      h('p', { class: 'app-meta' },
        live
          ? h('span', { class: 'badge live' }, `Live: version ${app.liveVersion}`)
          : h('span', { class: 'badge', id: `not-live-${name}` }, owner ? 'Not live yet — upload and promote a build' : 'Not live yet'),
        app.kind === 'site' ? h('span', { class: 'badge site', 'data-kind': 'site' }, 'Public site') : null,
        owner
          ? h('span', { class: 'badge role' }, 'Owner')
          : h('span', { class: 'badge role' }, app.owner ? `Shared with you by ${app.owner}` : 'Shared with you')),
      url ? h('p', { class: 'app-url' }, h('a', { href: url }, url)) : null,
      line),
    h('div', { class: 'app-actions' },
      openButton,
      owner ? h('a', { class: 'button', href: `#/apps/${seg(name)}`, 'data-manage': name }, 'Manage') : null));
}
