// Hash routing: '#/apps', '#/apps/guestbook', '#/open/guestbook?return=%2Fpath', …
// Each view gets a fresh AbortSignal that fires when the person leaves the page, so its
// requests and polls stop.

import { isSignedIn } from './session.js';

let routes = [];
let main = null;
let flashRegion = null;
let afterRender = () => {};
let controller = null;
let pendingFlash = null;
let firstRender = true;

/** Split a hash into path segments and query: '#/open/a?return=%2F' → (['open','a'], {return:'/'}). */
export function parseHash(hash) {
  const raw = (hash || '').replace(/^#/, '');
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  const segments = path.split('/').filter(Boolean).map((s) => {
    try { return decodeURIComponent(s); } catch { return s; }
  });
  return { segments, query };
}

export function currentHash() {
  return location.hash || '#/';
}

/** Where to go after signing in: only a page of this console, never sign-in itself. */
export function safeNext(next) {
  if (typeof next !== 'string' || !next.startsWith('#/')) return '#/apps';
  const [first] = parseHash(next).segments;
  return first === 'signin' || first === 'signup' ? '#/apps' : next;
}

export function signInHash(next) {
  const target = safeNext(next);
  return target === '#/apps' ? '#/signin' : `#/signin?next=${encodeURIComponent(target)}`;
}

/** Show a message on the next page (e.g. "Deleted guestbook."). kind: 'success' | 'info' | 'error'. */
export function flash(text, kind = 'success') {
  pendingFlash = { text, kind };
}

export function navigate(hash, { replace = false } = {}) {
  if (replace) {
    history.replaceState(null, '', hash);
    render();
  } else if (location.hash === hash) {
    render();
  } else {
    location.hash = hash; // hashchange renders
  }
}

function match(segments) {
  for (const route of routes) {
    if (route.path.length !== segments.length) continue;
    const params = {};
    let ok = true;
    route.path.forEach((part, i) => {
      if (part.startsWith(':')) params[part.slice(1)] = segments[i];
      else if (part !== segments[i]) ok = false;
    });
    if (ok) return { route, params };
  }
  return null;
}

function render() {
  const hash = currentHash();
  const { segments, query } = parseHash(hash);
  const signedIn = isSignedIn();

  if (segments.length === 0) {
    navigate(signedIn ? '#/apps' : '#/signin', { replace: true });
    return;
  }
  const found = match(segments) || { route: routes.notFound, params: {} };
  const { route, params } = found;
  if (!route.public && !signedIn) {
    navigate(signInHash(hash), { replace: true });
    return;
  }
  if (route.guestOnly && signedIn) {
    navigate(safeNext(query.get('next')), { replace: true });
    return;
  }

  if (controller) controller.abort();
  controller = new AbortController();

  const message = pendingFlash;
  pendingFlash = null;
  flashRegion.className = message ? `flash ${message.kind}` : 'flash';
  flashRegion.textContent = message ? message.text : '';
  flashRegion.hidden = !message;

  main.replaceChildren();
  window.scrollTo(0, 0);
  const ctx = {
    main,
    params,
    query,
    hash,
    signal: controller.signal,
    skipFocus: false,
    setTitle(title) { document.title = `${title} · Qaldy console`; },
  };
  ctx.setTitle(route.title || 'Qaldy console');
  route.view(ctx);
  afterRender({ route, signedIn });

  if (!ctx.skipFocus && !firstRender) {
    const heading = main.querySelector('h1');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    }
  }
  firstRender = false;
}

/**
 * Start routing.
 * @param {Array<{path: string[], view: Function, title?: string, public?: boolean, guestOnly?: boolean}>} table
 * @param {{main: HTMLElement, flashRegion: HTMLElement, notFound: object, onRender?: Function}} options
 */
export function startRouter(table, options) {
  routes = table;
  routes.notFound = options.notFound;
  main = options.main;
  flashRegion = options.flashRegion;
  afterRender = options.onRender || afterRender;
  window.addEventListener('hashchange', render);
  render();
}
