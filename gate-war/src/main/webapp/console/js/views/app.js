// One app ('#/apps/<name>[/<tab>]'), in tabs whose name is in the URL (issue 20: the page was one
// 3,800 px scroll of eight cards): Overview (what is live, Open); for its owner Deploys (upload,
// log, promote), Access (public site or sign-in, sharing), Jobs (schedules and runs), Webhooks,
// Shield and Settings (deleting the app). Each tab is its own hash, so back and forward move
// between tabs; the outage banner holds back the controls of whichever tab shows.

import { api, seg } from '../api.js';
import { h, loading, messageLine, replace, safeHttpUrl, say, setDisabled, timeElement, whileBusy } from '../dom.js';
import { navigate, flash } from '../router.js';
import { openApp, openFailure } from './open.js';
import { LIST_WAITS, explain, waitingNote, whenBack } from '../outage.js';
import { asOf, keep, keptList, markAsOf } from '../kept.js';
import { schedulesSection } from './jobs.js';
import { hooksSection } from './hooks.js';
import { shieldSection } from './shield.js';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;
const FINAL = new Set(['succeeded', 'failed']);
const STATUS_WORDS = {
  queued: 'Queued',
  building: 'Building',
  succeeded: 'Succeeded',
  failed: 'Failed',
};
const POLL_MS = 2000;
const POLL_MAX_MS = 15000;
const UPLOAD_TIMEOUT_MS = 5 * 60 * 1000;
const POLL_WAITS = 'The control plane is not answering; the build’s progress shows here when it is back.';

/** The app page's tabs, in order; 'owner' tabs are the owner's only (a viewer sees the overview). */
export const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'deploys', label: 'Deploys', owner: true },
  { id: 'access', label: 'Access', owner: true },
  { id: 'jobs', label: 'Jobs', owner: true },
  { id: 'webhooks', label: 'Webhooks', owner: true },
  { id: 'shield', label: 'Shield', owner: true },
  { id: 'settings', label: 'Settings', owner: true },
];

/** The hash of an app's tab: the overview is the app's own address. */
export function tabHash(name, tab) {
  return tab === 'overview' ? `#/apps/${seg(name)}` : `#/apps/${seg(name)}/${tab}`;
}

/** The app whose page showed last, to keep focus on the tabs when only the tab changes; null after another page. */
let lastShown = null;
let renders = 0;

/** A build's log as text: the API sends its lines as an array (the builder's steps). */
function logText(log) {
  if (Array.isArray(log)) return log.join('\n');
  return typeof log === 'string' ? log : '';
}

function sameVersion(a, b) {
  return a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);
}

function hasVersion(v) {
  return v !== null && v !== undefined && v !== '';
}

function compareVersionsDesc(a, b) {
  const na = Number(a.version);
  const nb = Number(b.version);
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return nb - na;
  const ta = Date.parse(a.createdAt ?? '') || Number(a.createdAt) || 0;
  const tb = Date.parse(b.createdAt ?? '') || Number(b.createdAt) || 0;
  if (ta !== tb) return tb - ta;
  return String(b.version).localeCompare(String(a.version));
}

function humanSize(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

export function appView(ctx) {
  const name = ctx.params.app;
  const tabId = ctx.params.tab || 'overview';
  const tab = TABS.find((t) => t.id === tabId);
  const sameApp = lastShown === name;
  lastShown = name;
  const render = ++renders;
  // The router aborts this page, then renders the next at once: forget the app unless that was another of its tabs.
  ctx.signal.addEventListener('abort', () => queueMicrotask(() => { if (renders === render) lastShown = null; }));
  ctx.setTitle(tab ? `${tab.label} · ${name}` : name);

  const nav = tabNav(name, tab ? tab.id : null);
  const body = h('div', { class: 'stack-lg', id: 'app-tab', 'data-tab': tab ? tab.id : '' }, loading(`Loading ${name}…`));
  ctx.main.append(
    h('p', { class: 'back' }, h('a', { href: '#/apps' }, '← All apps')),
    h('h1', {}, name),
    nav,
    body);
  if (sameApp) {
    // Only the tab changed: keep focus on the tabs, as a tab list does.
    ctx.skipFocus = true;
    const current = nav.querySelector('[aria-current="page"]');
    if (current) current.focus({ preventScroll: true });
  }

  if (!tab) {
    replace(body,
      h('p', { class: 'msg error', role: 'alert', id: 'app-no-tab' },
        `${name} has no section called “${tabId}”. Choose one of the sections above.`),
      h('a', { class: 'button', href: tabHash(name, 'overview') }, `Go to the overview of ${name}`));
    return;
  }

  const load = async () => {
    replace(body, loading(`Loading ${name}…`));
    let apps;
    try {
      apps = await api('GET', '/apps', undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      if (error.notAnswering) {
        // What this tab read of the app before, marked with its time; the page loads again on the first answer.
        const last = keptList('/apps');
        const known = last ? last.data.find((a) => String(a.name) === name) : null;
        const note = waitingNote(known
          ? `The control plane is not answering; this is ${name} as of ${asOf(last.at)}, and the page will refresh when it is back.`
          : 'The control plane is not answering; this page will load when it is back.', 'app-waiting');
        if (known) {
          renderApp(ctx, known, body, nav, tab);
          body.prepend(markAsOf(note, last.at));
        } else {
          replace(body, note);
        }
        whenBack(load, ctx.signal);
        return;
      }
      replace(body,
        h('p', { class: 'msg error', role: 'alert' }, `Could not load ${name}. ${error.message}`),
        h('button', { type: 'button', class: 'small', onclick: load }, 'Try again'));
      return;
    }
    if (ctx.signal.aborted) return;
    if (Array.isArray(apps)) keep('/apps', apps);
    const app = (Array.isArray(apps) ? apps : []).find((a) => String(a.name) === name);
    if (!app) {
      replace(body,
        h('p', { class: 'msg error', role: 'alert' },
          `There is no app named “${name}” that you can see. It may have been deleted, or it is not shared with you.`),
        h('a', { class: 'button', href: '#/apps' }, 'Go to your apps'));
      return;
    }
    renderApp(ctx, app, body, nav, tab);
  };
  load();
}

/** The row of section links; each is a real link to its own hash (back, forward, open in a new tab). */
function tabNav(name, current) {
  return h('nav', { class: 'tabs', id: 'app-tabs', 'aria-label': `Sections of ${name}` },
    h('ul', { class: 'tab-list' }, TABS.map((t) => h('li', { 'data-owner-tab': t.owner ? '' : null },
      h('a', {
        href: tabHash(name, t.id),
        class: 'tab',
        'data-tab': t.id,
        'aria-current': t.id === current ? 'page' : null,
      }, t.label)))));
}

function renderApp(ctx, app, body, nav, tab) {
  const name = String(app.name);
  const owner = app.role === 'owner';
  // A viewer has only the overview: the owner's sections are not offered.
  for (const li of nav.querySelectorAll('[data-owner-tab]')) li.hidden = !owner;
  const state = { liveVersion: app.liveVersion, listeners: [] };
  const setLive = (version) => {
    state.liveVersion = version;
    for (const fn of state.listeners) fn(version);
  };

  if (tab.owner && !owner) {
    replace(body,
      h('p', { class: 'msg error', role: 'alert', id: 'app-owner-only' },
        `Only the owner of ${name} can see its ${tab.label.toLowerCase()}${app.owner ? ` (${app.owner})` : ''}. `
        + 'You can open the app from its overview.'),
      h('a', { class: 'button', href: tabHash(name, 'overview') }, `Go to the overview of ${name}`));
    return;
  }

  let sections;
  switch (tab.id) {
    case 'deploys':
      sections = [buildsSection(ctx, name, state, setLive)];
      break;
    case 'access':
      sections = [kindSection(ctx, app), sharingSection(ctx, name)];
      break;
    case 'jobs':
      sections = [schedulesSection(ctx, name, state.liveVersion)];
      break;
    case 'webhooks':
      sections = [hooksSection(ctx, name, state.liveVersion)];
      break;
    case 'shield':
      sections = [shieldSection(ctx, name)];
      break;
    case 'settings':
      sections = [promoteSection(ctx, app), deleteSection(ctx, name)];
      break;
    default:
      sections = [overviewSection(ctx, app, state)];
      if (!owner) {
        sections.push(h('section', { class: 'card' },
          h('h2', {}, 'Shared with you'),
          h('p', {}, `${name} is shared with you${app.owner ? ` by ${app.owner}` : ''}. ` +
            'Only its owner can upload builds, choose the live version and change who can open it.')));
      }
  }
  replace(body, sections);
}

function overviewSection(ctx, app, state) {
  const name = String(app.name);
  const url = safeHttpUrl(app.url);
  const liveValue = h('dd', { id: 'live-version' });
  const line = messageLine('open-msg');
  const openButton = h('button', { type: 'button', class: 'primary', 'data-open': name }, 'Open');

  const showLive = (version) => {
    const live = hasVersion(version);
    liveValue.textContent = live
      ? `Version ${version}`
      : (app.role === 'owner'
        ? 'None yet. Upload a build on Deploys: the first one that builds goes live by itself.'
        : 'None yet. Its owner has not deployed a build.');
    setDisabled(openButton, 'not-live', !live);
  };
  showLive(state.liveVersion);
  state.listeners.push(showLive);

  openButton.addEventListener('click', () => whileBusy(openButton, 'Opening…', async () => {
    say(line, 'info', '');
    try {
      await openApp(name, '/', { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      say(line, 'error', `Could not open ${name}. ${openFailure(name, error)}`);
    }
  }));

  return h('section', { class: 'card', 'aria-labelledby': 'overview-title' },
    h('h2', { id: 'overview-title' }, 'Overview'),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Live version'), liveValue,
      h('dt', {}, 'Address'), h('dd', {}, url ? h('a', { href: url, class: 'break' }, url) : '—'),
      h('dt', {}, 'Who can open it'), h('dd', { id: 'app-kind' }, kindWords(app.kind)),
      h('dt', {}, 'Your role'), h('dd', {}, app.role === 'owner'
        ? 'Owner'
        : `Viewer${app.owner ? ` (shared by ${app.owner})` : ''}`)),
    h('div', { class: 'actions' }, openButton),
    line);
}

function buildsSection(ctx, name, state, setLive) {
  const rows = new Map(); // version (string) → row
  const list = h('ul', { id: 'build-list', class: 'build-list', 'aria-labelledby': 'builds-title' });
  const listState = h('div', {}, loading('Loading builds…'));
  const line = messageLine('builds-msg');
  const heading = h('h2', { id: 'builds-title', tabindex: '-1' }, 'Builds');

  // Upload
  const fileInput = h('input', {
    id: 'build-file',
    name: 'archive',
    type: 'file',
    accept: '.zip,application/zip,application/x-zip-compressed',
    'aria-describedby': 'build-file-hint',
    'data-change': true,
  });
  const uploadButton = h('button', { type: 'submit', id: 'upload-build', class: 'primary', 'data-change': true }, 'Upload and build');
  const uploadLine = messageLine('upload-msg');
  const uploadForm = h('form', { class: 'stack', novalidate: true, 'aria-label': 'Upload a build' },
    h('div', { class: 'field' },
      h('label', { for: 'build-file' }, 'Source archive (.zip)'),
      h('p', { class: 'hint', id: 'build-file-hint' },
        `A zip with qaldy.json at its root (its "name" must be "${name}"), your static files under public/, `
        + 'and optionally server.js. The first build that succeeds goes live by itself; later ones wait for Promote, '
        + 'unless Settings says every build goes live.'),
      fileInput),
    h('div', { class: 'actions' }, uploadButton),
    uploadLine);

  uploadForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const file = fileInput.files && fileInput.files[0];
    if (!file) {
      fileInput.setAttribute('aria-invalid', 'true');
      say(uploadLine, 'error', 'Choose a .zip file first.');
      fileInput.focus();
      return;
    }
    fileInput.removeAttribute('aria-invalid');
    say(uploadLine, 'info', `Uploading ${file.name} (${humanSize(file.size)})…`);
    whileBusy(uploadButton, 'Uploading…', async () => {
      let answer;
      try {
        answer = await api('POST', `/apps/${seg(name)}/builds`, file, {
          contentType: 'application/zip',
          timeoutMs: UPLOAD_TIMEOUT_MS,
          signal: ctx.signal,
        });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        if (error.status === 413) {
          say(uploadLine, 'error',
            `The archive is over the upload limit (this file is ${humanSize(file.size)}). Make it smaller and try again.`);
        } else if (error.kind === 'network') {
          say(uploadLine, 'error',
            'The upload did not finish. If the archive is large it may be over the upload limit; ' +
            'otherwise check your connection and try again.');
        } else {
          say(uploadLine, 'error', `The upload did not go through. ${explain(error)}`);
        }
        return;
      }
      if (ctx.signal.aborted) return;
      uploadForm.reset();
      if (answer && hasVersion(answer.version)) {
        say(uploadLine, 'success', `Uploaded. Version ${answer.version} is ${answer.status === 'building' ? 'building' : 'waiting for the builder'}; its log shows below.`);
        const row = upsert({ version: answer.version, status: answer.status || 'queued', log: '', createdAt: new Date().toISOString() });
        row.details.open = true;
        sortRows();
        listState.replaceChildren();
        schedulePoll(0);
      } else {
        say(uploadLine, 'success', 'Uploaded. The build is on its way.');
        loadList();
      }
    });
  });

  // Rows
  function upsert(build) {
    const key = String(build.version);
    let row = rows.get(key);
    if (!row) {
      row = makeRow(build);
      rows.set(key, row);
    }
    updateRow(row, build);
    return row;
  }

  function makeRow(build) {
    const status = h('span', { class: 'badge status' });
    const when = h('span', { class: 'build-time' });
    const sha = h('p', { class: 'sha' });
    const actions = h('div', { class: 'build-actions' });
    const log = h('pre', { class: 'log', tabindex: '0' });
    const details = h('details', { class: 'log-details' }, h('summary', {}, 'Build log'), log);
    const li = h('li', { class: 'build-item', 'data-version': String(build.version) },
      h('div', { class: 'build-head' },
        h('h3', { class: 'build-title' }, `Version ${build.version}`),
        status,
        when),
      sha,
      actions,
      details);
    details.addEventListener('toggle', () => {
      // The list may leave logs out; the single build always has one.
      if (details.open && row.build.log === undefined) {
        const fetchLog = () => fetchOne(row.build.version).catch((error) => {
          if (ctx.signal.aborted || error.handled) return;
          if (error.notAnswering) {
            row.log.textContent = 'The control plane is not answering; the log will load when it is back.';
            whenBack(fetchLog, ctx.signal);
            return;
          }
          row.log.textContent = `Could not load the log. ${error.message}`;
        });
        fetchLog();
      }
    });
    const row = { li, status, when, sha, actions, log, details, build };
    return row;
  }

  function updateRow(row, build) {
    const previous = row.build;
    row.build = { ...previous, ...build };
    const b = row.build;
    const word = STATUS_WORDS[b.status] || String(b.status || 'Unknown');
    row.status.textContent = word;
    row.status.className = `badge status ${STATUS_WORDS[b.status] ? b.status : ''}`.trim();
    row.li.dataset.status = String(b.status || '');
    replace(row.when, b.createdAt ? ['Uploaded ', timeElement(b.createdAt)] : []);
    if (b.sha256) {
      replace(row.sha, 'SHA-256 ', h('code', { title: String(b.sha256) }, String(b.sha256)));
      row.sha.hidden = false;
    } else {
      row.sha.hidden = true;
    }
    renderActions(row);

    const pre = row.log;
    const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 8;
    let text;
    const lines = logText(b.log);
    if (lines.length) text = lines;
    else if (b.status === 'queued') text = 'Waiting for the builder…';
    else if (b.status === 'building') text = 'Building… the log appears here as it grows.';
    else if (b.log === undefined) text = 'Open to load the log…';
    else text = 'This build wrote no log.';
    if (pre.textContent !== text) {
      pre.textContent = text;
      if (atBottom) pre.scrollTop = pre.scrollHeight;
    }
  }

  function renderActions(row) {
    const b = row.build;
    if (b.status !== 'succeeded') {
      replace(row.actions, b.status === 'failed' ? h('p', { class: 'hint' }, 'This build failed; read its log to see why.') : []);
      return;
    }
    if (sameVersion(state.liveVersion, b.version)) {
      replace(row.actions, h('span', { class: 'badge live', tabindex: '-1' }, 'Live now'));
      return;
    }
    const promote = h('button', { type: 'button', class: 'small', 'data-promote': String(b.version), 'data-change': true }, 'Promote to live');
    promote.addEventListener('click', () => whileBusy(promote, 'Promoting…', async () => {
      say(line, 'info', '');
      try {
        await api('PUT', `/apps/${seg(name)}/live`, { version: b.version }, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not promote version ${b.version}. ${explain(error)}`);
        return;
      }
      setLive(b.version);
      say(line, 'success', `Version ${b.version} is live.`);
      const badge = row.actions.querySelector('.badge.live');
      if (badge) badge.focus();
    }));
    replace(row.actions, promote);
  }

  state.listeners.push(() => { for (const row of rows.values()) renderActions(row); });

  function sortRows() {
    const ordered = [...rows.values()].sort((a, b) => compareVersionsDesc(a.build, b.build));
    list.replaceChildren(...ordered.map((r) => r.li));
  }

  // Loading and polling
  async function loadList() {
    replace(listState, loading('Loading builds…'));
    let builds;
    try {
      builds = await api('GET', `/apps/${seg(name)}/builds`, undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      if (error.notAnswering) {
        const last = rows.size ? null : keptList(`/apps/${seg(name)}/builds`);
        if (last) {
          for (const build of last.data) upsert(build);
          sortRows();
        }
        replace(listState, waitingNote(rows.size
          ? `The control plane is not answering; ${last ? `these are the builds as of ${asOf(last.at)}, and ` : ''}this list will refresh when it is back.`
          : LIST_WAITS, 'builds-waiting'));
        whenBack(loadList, ctx.signal);
        return;
      }
      replace(listState,
        h('p', { class: 'msg error', role: 'alert' }, `Could not load the builds. ${error.message}`),
        h('button', { type: 'button', class: 'small', onclick: loadList }, 'Try again'));
      return;
    }
    if (ctx.signal.aborted) return;
    builds = Array.isArray(builds) ? builds : [];
    keep(`/apps/${seg(name)}/builds`, builds);
    for (const build of builds) upsert(build);
    sortRows();
    if (rows.size === 0) {
      replace(listState, h('p', { class: 'empty', id: 'builds-empty' }, 'No builds yet. Upload a .zip above to make the first one.'));
    } else {
      listState.replaceChildren();
    }
    schedulePoll(POLL_MS);
  }

  async function fetchOne(version) {
    const build = await api('GET', `/apps/${seg(name)}/builds/${seg(version)}`, undefined, { signal: ctx.signal });
    if (ctx.signal.aborted || !build) return;
    const row = rows.get(String(version));
    if (!row) return;
    const wasFinal = FINAL.has(row.build.status);
    updateRow(row, build);
    if (!wasFinal && FINAL.has(row.build.status)) {
      say(uploadLine, 'info', ''); // "building…" is over; the builds line says how it went
      const wentLive = row.build.status === 'succeeded' && Array.isArray(row.build.log)
        ? row.build.log.map(String).find((l) => l.startsWith('live:')) : undefined;
      if (wentLive) {
        setLive(row.build.version); // it went live by itself (its log says so)
        say(line, 'success', wentLive.includes('first build')
          ? `Version ${version} built and is live: it is the app’s first build. Later builds wait until you promote them.`
          : `Version ${version} built and is live: the app’s settings say every build goes live.`);
      } else if (row.build.status === 'succeeded') {
        say(line, 'success', `Version ${version} built. Promote it to make it live.`);
      } else {
        say(line, 'error', `Version ${version} failed. Its log below says why.`);
        row.details.open = true;
      }
    }
  }

  let pollTimer = null;
  let pollDelay = POLL_MS;

  function schedulePoll(delay) {
    if (pollTimer || ctx.signal.aborted) return;
    const pending = [...rows.values()].filter((r) => !FINAL.has(r.build.status));
    if (pending.length === 0) return;
    pollTimer = setTimeout(async () => {
      pollTimer = null;
      if (ctx.signal.aborted) return;
      const waiting = [...rows.values()].filter((r) => !FINAL.has(r.build.status));
      try {
        for (const row of waiting) await fetchOne(row.build.version);
        pollDelay = POLL_MS;
        if (line.textContent === POLL_WAITS) say(line, 'info', ''); // back, and nothing newer was said
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        pollDelay = Math.min(pollDelay * 2, POLL_MAX_MS);
        if (error.notAnswering) {
          say(line, 'info', POLL_WAITS);
        } else {
          say(line, 'error', `Could not check on the build just now; trying again in ${Math.round(pollDelay / 1000)} seconds. ${error.message}`);
        }
      }
      schedulePoll(pollDelay);
    }, delay);
  }

  ctx.signal.addEventListener('abort', () => { if (pollTimer) clearTimeout(pollTimer); });
  loadList();

  return h('section', { class: 'card', 'aria-labelledby': 'builds-title' },
    heading,
    h('h3', { class: 'subhead' }, 'Upload a build'),
    uploadForm,
    h('h3', { class: 'subhead' }, 'All builds'),
    line,
    listState,
    list);
}

function sharingSection(ctx, name) {
  const list = h('ul', { id: 'share-list', class: 'share-list', 'aria-labelledby': 'sharing-title' });
  const listState = h('div', {}, loading('Loading who can open it…'));
  const line = messageLine('share-msg');

  const emailInput = h('input', {
    id: 'share-email',
    name: 'email',
    type: 'email',
    autocomplete: 'off',
    autocapitalize: 'none',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'share-email-hint',
    'data-change': true,
  });
  const addButton = h('button', { type: 'submit', id: 'share-add', class: 'primary', 'data-change': true }, 'Share');
  const form = h('form', { class: 'inline-form', novalidate: true, 'aria-label': 'Share with a person' },
    h('div', { class: 'field grow' },
      h('label', { for: 'share-email' }, 'Email of the person to share with'),
      h('p', { class: 'hint', id: 'share-email-hint' },
        'They open the app after signing in to Qaldy with this email; someone without an account yet gets access as soon as '
        + 'they create one with it. Qaldy sends no email, so tell them yourself.'),
      h('div', { class: 'input-row' }, emailInput, addButton)));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const email = emailInput.value.trim();
    if (!EMAIL_SHAPE.test(email)) {
      emailInput.setAttribute('aria-invalid', 'true');
      say(line, 'error', 'Enter an email address, like name@example.com.');
      emailInput.focus();
      return;
    }
    emailInput.removeAttribute('aria-invalid');
    say(line, 'info', '');
    whileBusy(addButton, 'Sharing…', async () => {
      try {
        await api('POST', `/apps/${seg(name)}/shares`, { email }, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        if (error.status === 400) emailInput.setAttribute('aria-invalid', 'true');
        say(line, 'error', `Could not share with ${email}. ${explain(error)}`);
        emailInput.focus();
        return;
      }
      emailInput.value = '';
      // The API records a share for any email, account or not (issue 20: say what happens to one without an account).
      say(line, 'success', `Shared with ${email}. If they have no Qaldy account yet, it waits for them: once they create `
        + `one with this email, ${name} is in their apps. Qaldy sends no email, so tell them yourself.`);
      emailInput.focus();
      loadList();
    });
  });

  function shareItem(email) {
    const revoke = h('button', {
      type: 'button',
      class: 'small danger-quiet',
      'data-revoke': email,
      'data-change': true,
      'aria-label': `Revoke access for ${email}`,
    }, 'Revoke');
    const li = h('li', { class: 'share-item', 'data-email': email }, h('span', { class: 'break' }, email), revoke);
    revoke.addEventListener('click', () => whileBusy(revoke, 'Revoking…', async () => {
      say(line, 'info', '');
      try {
        await api('DELETE', `/apps/${seg(name)}/shares/${seg(email)}`, undefined, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not revoke access for ${email}. ${explain(error)}`);
        return;
      }
      li.remove();
      say(line, 'success', `Revoked access for ${email}.`);
      if (!list.children.length) showEmpty();
      emailInput.focus();
    }));
    return li;
  }

  function showEmpty() {
    replace(listState, h('p', { class: 'empty', id: 'shares-empty' }, 'Not shared with anyone yet. Only you can open this app.'));
  }

  async function loadList() {
    let shares;
    try {
      shares = await api('GET', `/apps/${seg(name)}/shares`, undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      if (error.notAnswering) {
        const last = list.children.length ? null : keptList(`/apps/${seg(name)}/shares`);
        if (last) showShares(last.data);
        replace(listState, waitingNote(list.children.length
          ? `The control plane is not answering; ${last ? `these are the people as of ${asOf(last.at)}, and ` : ''}this list will refresh when it is back.`
          : LIST_WAITS, 'shares-waiting'));
        whenBack(loadList, ctx.signal);
        return;
      }
      replace(listState,
        h('p', { class: 'msg error', role: 'alert' }, `Could not load who can open it. ${error.message}`),
        h('button', { type: 'button', class: 'small', onclick: loadList }, 'Try again'));
      return;
    }
    if (ctx.signal.aborted) return;
    shares = Array.isArray(shares) ? shares : [];
    keep(`/apps/${seg(name)}/shares`, shares);
    showShares(shares);
  }

  function showShares(shares) {
    const emails = shares
      .map((s) => String(s.email))
      .sort((a, b) => a.localeCompare(b));
    replace(list, emails.map(shareItem));
    if (emails.length === 0) showEmpty(); else listState.replaceChildren();
  }
  loadList();

  return h('section', { class: 'card', 'aria-labelledby': 'sharing-title' },
    h('h2', { id: 'sharing-title' }, 'Sharing'),
    form,
    line,
    h('h3', { class: 'subhead' }, 'People who can open it'),
    listState,
    list);
}

function kindWords(kind) {
  return kind === 'site'
    ? 'Anyone: a public site, no sign-in'
    : 'You and the people you share it with, after signing in';
}

// App or public site: a site opens for anyone without signing in (static files only); sharing then does not apply.
function kindSection(ctx, app) {
  const name = String(app.name);
  let kind = app.kind === 'site' ? 'site' : 'app';
  const line = messageLine('kind-msg');
  const status = h('p', { id: 'kind-status' });
  const button = h('button', { type: 'button', id: 'kind-toggle', 'data-change': true });
  const show = () => {
    status.textContent = kindWords(kind) + '.';
    button.textContent = kind === 'site' ? 'Require sign-in' : 'Make it a public site';
    const fact = document.getElementById('app-kind');
    if (fact) fact.textContent = kindWords(kind);
  };
  show();
  button.addEventListener('click', () => whileBusy(button, 'Saving…', async () => {
    const next = kind === 'site' ? 'app' : 'site';
    say(line, 'info', '');
    try {
      const saved = await api('PUT', `/apps/${seg(name)}/kind`, { kind: next }, { signal: ctx.signal });
      kind = saved && saved.kind === 'site' ? 'site' : 'app';
      show();
      say(line, 'success', kind === 'site'
        ? `${name} is a public site now: anyone can open its pages without signing in.`
        : `${name} needs sign-in again: only you and the people you share it with can open it.`);
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      say(line, 'error', explain(error));
    }
  }));
  return h('section', { class: 'card', 'aria-labelledby': 'kind-title' },
    h('h2', { id: 'kind-title' }, 'Who can open it'),
    status,
    h('p', { class: 'hint' }, 'A public site serves its static files to anyone, without sign-in; its server code does not run. '
      + 'The rate limits and your spending cap still apply.'),
    h('div', { class: 'actions' }, button),
    line);
}

// Whether every build goes live by itself (Render's auto-deploy) or only the first one.
function promoteSection(ctx, app) {
  const name = String(app.name);
  let every = app.promoteEveryBuild === true;
  const line = messageLine('promote-every-msg');
  const status = h('p', { id: 'promote-every-status' });
  const button = h('button', { type: 'button', id: 'promote-every-toggle', 'data-change': true });
  const show = () => {
    status.textContent = every
      ? 'Every build that succeeds goes live by itself.'
      : 'The first build goes live by itself; later builds wait until you promote them on Deploys.';
    button.textContent = every ? 'Wait for Promote' : 'Make every build go live';
  };
  show();
  button.addEventListener('click', () => whileBusy(button, 'Saving…', async () => {
    say(line, 'info', '');
    try {
      const saved = await api('PUT', `/apps/${seg(name)}/promote-every-build`, { promoteEveryBuild: !every }, { signal: ctx.signal });
      every = saved && saved.promoteEveryBuild === true;
      show();
      say(line, 'success', every
        ? `Saved. Each new build of ${name} goes live as soon as it succeeds.`
        : `Saved. New builds of ${name} wait until you promote them.`);
    } catch (error) {
      if (ctx.signal.aborted || error.handled) return;
      say(line, 'error', `Could not save the setting. ${explain(error)}`);
    }
  }));
  return h('section', { class: 'card', 'aria-labelledby': 'promote-every-title' },
    h('h2', { id: 'promote-every-title' }, 'Deploys'),
    status,
    h('p', { class: 'hint' }, 'A build that failed never goes live, and a build older than the live one never replaces it.'),
    h('div', { class: 'actions' }, button),
    line);
}

function deleteSection(ctx, name) {
  const line = messageLine('delete-msg');
  const confirmInput = h('input', {
    id: 'delete-confirm-name',
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'none',
    spellcheck: 'false',
    'data-change': true,
  });
  const confirmButton = h('button', { type: 'submit', id: 'delete-app-confirm', class: 'danger', 'data-change': true }, `Delete ${name}`);
  const cancelButton = h('button', { type: 'button', class: 'quiet' }, 'Cancel');
  const startButton = h('button', { type: 'button', id: 'delete-app', class: 'danger-quiet', 'data-change': true }, 'Delete this app…');
  const confirmForm = h('form', { class: 'stack confirm', novalidate: true, hidden: true, 'aria-label': `Confirm deleting ${name}` },
    h('div', { class: 'field' },
      h('label', { for: 'delete-confirm-name' }, `Type the app’s name, “${name}”, to confirm`),
      confirmInput),
    h('div', { class: 'actions' }, confirmButton, cancelButton));

  setDisabled(confirmButton, 'invalid', true);
  confirmInput.addEventListener('input', () => {
    setDisabled(confirmButton, 'invalid', confirmInput.value.trim() !== name);
  });
  startButton.addEventListener('click', () => {
    confirmForm.hidden = false;
    startButton.hidden = true;
    confirmInput.focus();
  });
  cancelButton.addEventListener('click', () => {
    confirmForm.hidden = true;
    startButton.hidden = false;
    confirmInput.value = '';
    setDisabled(confirmButton, 'invalid', true);
    say(line, 'info', '');
    startButton.focus();
  });
  confirmForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (confirmInput.value.trim() !== name) return;
    whileBusy(confirmButton, 'Deleting…', async () => {
      try {
        await api('DELETE', `/apps/${seg(name)}`, undefined, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted || error.handled) return;
        say(line, 'error', `Could not delete ${name}. ${explain(error)}`);
        return;
      }
      flash(`Deleted ${name}.`);
      navigate('#/apps');
    });
  });

  return h('section', { class: 'card danger-zone', 'aria-labelledby': 'delete-title' },
    h('h2', { id: 'delete-title' }, 'Delete this app'),
    h('p', {}, 'Deleting removes the app, all its builds, its sharing, schedules, runs, webhooks and data. Its address stops working. This cannot be undone.'),
    startButton,
    confirmForm,
    line);
}
