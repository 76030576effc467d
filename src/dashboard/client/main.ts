import './styles.css';
import { onUnauthenticated } from './kit/api.js';
import { h } from './kit/dom.js';
import { form } from './kit/form.js';
import { startRouter } from './kit/router.js';
import { adopt, currentSession, signIn, type SignedIn } from './session.js';
import { drawChrome, goHome, markCurrent } from './shell.js';
import './pages/keys.js';
import './pages/usage.js';
import './pages/webhooks.js';
import './pages/playground.js';
import './pages/interviews/index.js';

const header = h('header', { class: 'top' });
const nav = h('nav', { class: 'main-nav', 'aria-label': 'Main' });
const main = h('main', { id: 'main', tabindex: -1 });
const skip = h('button', { type: 'button', class: 'skip' }, 'Skip to content');
skip.addEventListener('click', () => main.focus());
document.body.append(skip, header, nav, main);

let signedIn = false;

function signInView(): void {
  signedIn = false;
  drawChrome(header, nav, undefined, signInView);
  document.title = 'Sign in · Dashboard';
  main.replaceChildren(
    h(
      'section',
      { class: 'sign-in' },
      h('h1', { tabindex: -1 }, 'Sign in'),
      form(
        [
          { name: 'email', label: 'Email', type: 'email', required: true },
          { name: 'password', label: 'Password', type: 'password', required: true },
        ],
        'Sign in',
        async (values) => enter(await signIn(String(values.email), String(values.password))),
      ),
    ),
  );
  main.querySelector<HTMLElement>('input')?.focus();
}

let routing = false;

function enter(session: SignedIn): void {
  signedIn = true;
  adopt(session);
  drawChrome(header, nav, session, signInView);
  if (!location.hash || location.hash === '#/') goHome();
  if (!routing) {
    routing = true;
    startRouter(main, (current) => markCurrent(nav, current));
  } else {
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  }
}

// The session ended (expired, or signed out in another tab): back to the form. A failed sign-in is a 401 too, but not this case.
onUnauthenticated(() => {
  if (signedIn) signInView();
});

currentSession().then(enter, signInView);
