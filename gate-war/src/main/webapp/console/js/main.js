// The console's entry point: the header, the routes, and what happens on sign-out, in this tab
// or in another tab of the browser (the session is the browser's, session.js).

import { api, onSignedOut } from './api.js';
import { isSignedIn, getEmail, setEmail, clearSession, onSessionChange, startSession } from './session.js';
import { whileBusy } from './dom.js';
import { startOutageWatch } from './outage.js';
import { startRouter, navigate, flash, currentHash, signInHash, parseHash, safeNext } from './router.js';
import { signinView, signupView } from './views/signin.js';
import { appsView } from './views/apps.js';
import { appView } from './views/app.js';
import { auditView } from './views/audit.js';
import { billingView } from './views/billing.js';
import { openView } from './views/open.js';
import { notFoundView } from './views/notfound.js';

const routes = [
  { path: ['signin'], view: signinView, title: 'Sign in', public: true, guestOnly: true },
  { path: ['signup'], view: signupView, title: 'Create an account', public: true, guestOnly: true },
  { path: ['apps'], view: appsView, title: 'Your apps' },
  { path: ['new'], view: (ctx) => { ctx.focusCreate = true; appsView(ctx); }, title: 'Create an app' },
  { path: ['apps', ':app'], view: appView, title: 'App' },
  { path: ['apps', ':app', ':tab'], view: appView, title: 'App' },
  { path: ['audit'], view: auditView, title: 'Audit log' },
  { path: ['billing'], view: billingView, title: 'Billing' },
  { path: ['open', ':app'], view: openView, title: 'Opening app' },
];

const nav = document.getElementById('nav');
const who = document.getElementById('who');
const meEmail = document.getElementById('me-email');
const signoutButton = document.getElementById('signout');

let lookingUpMe = false;

function updateHeader() {
  const signedIn = isSignedIn();
  nav.hidden = !signedIn;
  who.hidden = !signedIn;
  if (!signedIn) return;

  const [first] = parseHash(currentHash()).segments;
  for (const link of nav.querySelectorAll('a')) {
    const section = link.getAttribute('href').replace('#/', '');
    const current = section === first || (section === 'apps' && first === 'new');
    if (current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }

  const email = getEmail();
  meEmail.textContent = email || '';
  if (!email && !lookingUpMe) {
    lookingUpMe = true;
    api('GET', '/people/me')
      .then((me) => {
        if (me && typeof me.email === 'string') {
          setEmail(me.email);
          meEmail.textContent = me.email;
        }
      })
      .catch(() => { /* the header can do without the email */ })
      .finally(() => { lookingUpMe = false; });
  }
}

// The skip link must not change the hash (that is the router's); it only moves focus.
document.querySelector('.skip-link').addEventListener('click', (event) => {
  event.preventDefault();
  const main = document.getElementById('main');
  const target = main.querySelector('h1') || main;
  target.setAttribute('tabindex', '-1');
  target.focus();
});

// Every tab shows the sign-in at once (the note goes first, session.js); then the API ends the
// session, and the gate clears the cookie with its answer, whatever it is (also while the API is away).
signoutButton.addEventListener('click', () => {
  whileBusy(signoutButton, 'Signing out…', async () => {
    clearSession();
    try {
      await api('DELETE', '/sessions/current', undefined, { timeoutMs: 5000, auth: false });
    } catch {
      // Signed out in this browser either way: the gate cleared the cookie with its answer.
    }
    flash('You are signed out.', 'info');
    navigate('#/signin');
  });
});

onSignedOut(() => {
  const [first] = parseHash(currentHash()).segments;
  if (first === 'signin' || first === 'signup') return;
  flash('Your session has ended. Sign in again to continue.', 'info');
  navigate(signInHash(currentHash()), { replace: true });
});

// Another tab signed out, in, or in as someone else: this one follows at once, without a reload.
onSessionChange(({ signedIn, email, wasSignedIn }) => {
  const { segments, query } = parseHash(currentHash());
  const [first] = segments;
  const guestPage = first === 'signin' || first === 'signup';
  if (!signedIn) {
    if (guestPage) {
      updateHeader();
      return;
    }
    flash('Your session ended in another tab. Sign in again to continue.', 'info');
    navigate(signInHash(currentHash()), { replace: true });
    return;
  }
  if (guestPage) {
    navigate(safeNext(query.get('next')), { replace: true });
    return;
  }
  if (wasSignedIn) {
    flash(`You are now signed in as ${email || 'another person'}, from another tab.`, 'info');
    navigate('#/apps', { replace: true });
    return;
  }
  updateHeader();
});

startSession();

// The outage watch counts every call from here on; its settings load while the first page shows.
startOutageWatch();

startRouter(routes, {
  main: document.getElementById('main'),
  flashRegion: document.getElementById('flash'),
  notFound: { path: [], view: notFoundView, title: 'Page not found', public: true },
  onRender: updateHeader,
});
