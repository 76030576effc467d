import { clear, h } from './kit/dom.js';
import { navigate, refresh } from './kit/router.js';
import { currentWorkspace, setWorkspace } from './kit/workspace.js';
import { signOut, type SignedIn } from './session.js';

const NAV: { hash: string; label: string }[] = [
  { hash: '#/keys', label: 'API keys' },
  { hash: '#/usage', label: 'Usage' },
  { hash: '#/roles', label: 'Roles' },
  { hash: '#/interviewers', label: 'Interviewers' },
  { hash: '#/participants', label: 'Participants' },
  { hash: '#/sessions', label: 'Sessions' },
  { hash: '#/webhooks', label: 'Webhooks' },
  { hash: '#/playground', label: 'Playground' },
];

function workspaceSwitcher(session: SignedIn): HTMLElement {
  if (session.workspaces.length === 1) return h('span', { class: 'workspace' }, 'Workspace: ', h('strong', null, currentWorkspace()));
  const select = h(
    'select',
    { id: 'workspace', name: 'workspace' },
    session.workspaces.map((workspace) =>
      h('option', { value: workspace.slug, selected: workspace.slug === currentWorkspace() }, `${workspace.slug} (${workspace.plan})`),
    ),
  ) as HTMLSelectElement;
  select.addEventListener('change', () => {
    setWorkspace(select.value);
    refresh();
  });
  return h('span', { class: 'workspace' }, h('label', { for: 'workspace' }, 'Workspace'), select);
}

/** The header (workspace, user, sign-out) and the navigation of a signed-in user; empty when signed out. */
export function drawChrome(header: HTMLElement, nav: HTMLElement, session: SignedIn | undefined, onSignedOut: () => void): void {
  clear(header);
  clear(nav);
  header.append(h('a', { class: 'brand', href: '#/keys' }, 'Dashboard'));
  if (!session) return;
  const signOutButton = h('button', { type: 'button', class: 'secondary' }, 'Sign out');
  signOutButton.addEventListener('click', () => {
    void signOut().finally(onSignedOut);
  });
  header.append(workspaceSwitcher(session), h('span', { class: 'user' }, session.user.email), signOutButton);
  nav.append(
    h(
      'ul',
      null,
      NAV.map((entry) => h('li', null, h('a', { href: entry.hash }, entry.label))),
    ),
  );
}

/** Marks the navigation entry of the page shown. */
export function markCurrent(nav: HTMLElement, current: string): void {
  for (const link of nav.querySelectorAll('a')) {
    if (link.getAttribute('href') === current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

export function goHome(): void {
  navigate('#/keys');
}
