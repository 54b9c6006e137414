// Sign in and sign up. After either, the person continues where they were going
// (the 'next' query: an app list, an app, or '#/open/<app>' on the way to an app's origin).

import { api } from '../api.js';
import { saveSession } from '../session.js';
import { h, messageLine, say, setDisabled, whileBusy } from '../dom.js';
import { navigate, parseHash, safeNext, flash } from '../router.js';
import { isDown, onOutageChange } from '../outage.js';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/** The app a 'next' of '#/open/<app>' leads to, or null. */
function openingApp(next) {
  const { segments } = parseHash(next);
  return segments[0] === 'open' && segments[1] ? segments[1] : null;
}

function field({ id, label, type, autocomplete, hint }) {
  const hintId = hint ? `${id}-hint` : null;
  const input = h('input', {
    id,
    name: id,
    type,
    autocomplete,
    required: true,
    'aria-describedby': hintId,
    autocapitalize: type === 'email' ? 'none' : null,
    spellcheck: type === 'email' ? 'false' : null,
  });
  const wrapper = h('div', { class: 'field' },
    h('label', { for: id }, label),
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
    input);
  return { wrapper, input };
}

// In a visitor's words (issue 20): people reach this form on their way to an app. The gate's
// own 503 page says the same (Page.SIGN_IN_PAUSED), and so does its answer to a sign-in while it
// knows the control plane is failing, which comes at once.
export const SIGNIN_WAITS = 'Signing in is paused for a moment. If you already use this app, it keeps working.';
const SIGNUP_WAITS = 'Creating an account is paused for a moment. Please try again in a minute.';

/**
 * A note that shows while the outage banner is up, so nobody types a password for nothing.
 * The button stays usable for sign-in (trying costs nothing, and an answer ends the outage).
 */
function outageNote(ctx, id, text, button) {
  const note = h('p', { class: 'msg waiting', id, hidden: !isDown() }, text);
  const show = (down) => {
    note.hidden = !down;
    const described = (button.getAttribute('aria-describedby') || '').split(/\s+/).filter((x) => x && x !== id);
    if (down) described.push(id);
    if (described.length) button.setAttribute('aria-describedby', described.join(' '));
    else button.removeAttribute('aria-describedby');
  };
  show(isDown());
  onOutageChange(show, ctx.signal);
  return note;
}

function markInvalid(input, invalid) {
  if (invalid) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

/**
 * Signs in for the browser: the gate keeps the session in its HttpOnly cookie (X-Qaldy-Session:
 * cookie) and answers { expiresAt, session: 'cookie' }, never the token; every tab is told.
 */
async function signIn(email, password) {
  const session = await api('POST', '/sessions', { email, password },
    { auth: false, headers: { 'X-Qaldy-Session': 'cookie' } });
  if (!session || session.session !== 'cookie' || typeof session.expiresAt !== 'string') {
    throw new Error('Signing in did not finish. Please try again in a moment.');
  }
  saveSession(session, email);
}

/** Keep the button disabled for Retry-After seconds, saying how long is left. */
function waitOut(button, line, seconds, signal) {
  let left = Math.max(1, seconds);
  setDisabled(button, 'wait', true);
  const tell = () => say(line, 'error',
    `Too many tries. You can try again in ${left} second${left === 1 ? '' : 's'}.`);
  tell();
  const timer = setInterval(() => {
    left -= 1;
    if (left <= 0 || signal.aborted) {
      clearInterval(timer);
      setDisabled(button, 'wait', false);
      if (!signal.aborted) say(line, 'info', 'You can try again now.');
    } else {
      tell();
    }
  }, 1000);
}

export function signinView(ctx) {
  const next = safeNext(ctx.query.get('next'));
  const app = openingApp(next);

  const email = field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username' });
  const password = field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' });
  const line = messageLine('signin-msg');
  const button = h('button', { type: 'submit', id: 'signin', class: 'primary' }, 'Sign in');
  const waits = outageNote(ctx, 'signin-waits', SIGNIN_WAITS, button);
  const signupHref = next === '#/apps' ? '#/signup' : `#/signup?next=${encodeURIComponent(next)}`;

  const form = h('form', { class: 'stack', novalidate: true, 'aria-labelledby': 'signin-title' },
    waits, email.wrapper, password.wrapper, line, h('div', { class: 'actions' }, button));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const emailValue = email.input.value.trim();
    const passwordValue = password.input.value;
    markInvalid(email.input, !emailValue);
    markInvalid(password.input, !passwordValue);
    if (!emailValue || !passwordValue) {
      say(line, 'error', 'Enter your email and password.');
      (emailValue ? password.input : email.input).focus();
      return;
    }
    say(line, 'info', '');
    whileBusy(button, 'Signing in…', async () => {
      try {
        await signIn(emailValue, passwordValue);
        navigate(next);
      } catch (error) {
        if (ctx.signal.aborted) return;
        if (error.notAnswering) {
          // The note above says it when the banner is up; then this line only says what happened.
          say(line, 'waiting', isDown() ? 'You are not signed in yet. Please try again in a minute.' : SIGNIN_WAITS);
          return;
        }
        if (error.status === 429) {
          waitOut(button, line, error.retryAfter ?? 30, ctx.signal);
          return;
        }
        if (error.status === 401) {
          say(line, 'error', error.detail || 'That email and password do not match an account. Check both and try again.');
          password.input.select();
          password.input.focus();
          return;
        }
        say(line, 'error', error.message);
      }
    });
  });

  ctx.setTitle(app ? `Sign in to open ${app}` : 'Sign in');
  ctx.main.append(
    h('section', { class: 'card narrow' },
      h('h1', { id: 'signin-title' }, app ? `Sign in to open ${app}` : 'Sign in'),
      h('p', { class: 'lead' }, app
        ? `You need to sign in to Qaldy before you can open ${app}. You will go straight there afterwards.`
        : 'Sign in to manage your apps, their builds and who can open them.'),
      form,
      h('p', { class: 'aside' }, 'New to Qaldy? ',
        h('a', { id: 'signup-link', href: signupHref }, 'Create an account'))));

  ctx.skipFocus = true;
  email.input.focus();
}

export function signupView(ctx) {
  const next = safeNext(ctx.query.get('next'));

  const email = field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username' });
  const password = field({
    id: 'password', label: 'Password', type: 'password', autocomplete: 'new-password',
    hint: 'Between 10 and 128 characters. A few words you can remember work well.',
  });
  const line = messageLine('signup-msg');
  // Creating an account is a change: held back while the control plane does not answer.
  const button = h('button', { type: 'submit', id: 'signup', class: 'primary', 'data-change': true }, 'Create account');
  const waits = outageNote(ctx, 'signup-waits', SIGNUP_WAITS, button);
  const signinHref = next === '#/apps' ? '#/signin' : `#/signin?next=${encodeURIComponent(next)}`;

  const form = h('form', { class: 'stack', novalidate: true, 'aria-labelledby': 'signup-title' },
    waits, email.wrapper, password.wrapper, line, h('div', { class: 'actions' }, button));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const emailValue = email.input.value.trim();
    const passwordValue = password.input.value;
    let problem = null;
    let focus = null;
    if (!EMAIL_SHAPE.test(emailValue)) {
      problem = 'Enter an email address, like name@example.com.';
      focus = email.input;
    } else if (passwordValue.length < 10) {
      problem = 'The password needs at least 10 characters.';
      focus = password.input;
    } else if (passwordValue.length > 128) {
      problem = 'The password can have at most 128 characters.';
      focus = password.input;
    }
    markInvalid(email.input, focus === email.input);
    markInvalid(password.input, focus === password.input);
    if (problem) {
      say(line, 'error', problem);
      focus.focus();
      return;
    }
    say(line, 'info', '');
    whileBusy(button, 'Creating account…', async () => {
      try {
        await api('POST', '/people', { email: emailValue, password: passwordValue }, { auth: false });
      } catch (error) {
        if (ctx.signal.aborted) return;
        if (error.notAnswering) {
          say(line, 'waiting', isDown() ? 'Your account was not created yet. Please try again in a minute.' : SIGNUP_WAITS);
        } else if (error.status === 409) {
          markInvalid(email.input, true);
          say(line, 'error', error.detail || 'There is already an account with this email. Sign in instead.');
          email.input.focus();
        } else {
          say(line, 'error', error.message);
        }
        return;
      }
      try {
        await signIn(emailValue, passwordValue);
        flash('Your account is ready. Welcome to Qaldy.');
        navigate(next);
      } catch {
        // The account exists; only the automatic sign-in failed.
        flash('Your account is ready. Sign in to continue.', 'info');
        navigate(signinHref);
      }
    });
  });

  ctx.main.append(
    h('section', { class: 'card narrow' },
      h('h1', { id: 'signup-title' }, 'Create an account'),
      h('p', { class: 'lead' }, 'One account for the console and for every app shared with you.'),
      form,
      h('p', { class: 'aside' }, 'Already have an account? ',
        h('a', { id: 'signin-link', href: signinHref }, 'Sign in'))));

  ctx.skipFocus = true;
  email.input.focus();
}
