// Any hash the console does not know.

import { h } from '../dom.js';
import { isSignedIn } from '../session.js';

export function notFoundView(ctx) {
  ctx.main.append(
    h('section', { class: 'card narrow' },
      h('h1', {}, 'Page not found'),
      h('p', {}, 'There is no page at this address in the console.'),
      h('a', { class: 'button primary', href: isSignedIn() ? '#/apps' : '#/signin' },
        isSignedIn() ? 'Go to your apps' : 'Sign in')));
}
