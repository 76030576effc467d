import { api, ApiError, currentWorkspace } from '../kit/api.js';
import { confirmDialog } from '../kit/dialog.js';
import { h } from '../kit/dom.js';
import { when } from '../kit/format.js';
import { page, refresh } from '../kit/router.js';
import { pager, table } from '../kit/table.js';
import { revealSecret } from '../parts/secret.js';

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  suffix: string;
  scopes: string[];
  revoked_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

interface KeyList {
  data: ApiKey[];
  meta: { page: number; pageSize: number; total: number };
}

const PAGE_SIZE = 20;

/** The canonical scope names, as the service's scope table has them (the shell carries them in a meta element). */
function canonicalScopes(): string[] {
  return (document.querySelector<HTMLMetaElement>('meta[name="dashboard-scopes"]')?.content ?? '').split(' ').filter(Boolean);
}

function byResource(scopes: string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const scope of scopes) {
    const resource = scope.split(':')[0];
    groups.set(resource, [...(groups.get(resource) ?? []), scope]);
  }
  return groups;
}

function scopePicker(): { element: HTMLElement; selected(): string[] } {
  const boxes: HTMLInputElement[] = [];
  const groups = [...byResource(canonicalScopes())].map(([resource, scopes]) =>
    h(
      'fieldset',
      { class: 'scope-group' },
      h('legend', null, resource),
      scopes.map((scope) => {
        const id = `scope-${scope.replace(':', '-')}`;
        const box = h('input', { type: 'checkbox', id, name: 'scopes', value: scope }) as HTMLInputElement;
        boxes.push(box);
        return h('span', { class: 'scope' }, box, h('label', { for: id }, scope));
      }),
    ),
  );
  const all = h('input', { type: 'checkbox', id: 'scope-all' }) as HTMLInputElement;
  all.addEventListener('change', () => boxes.forEach((box) => (box.checked = all.checked)));
  const element = h(
    'fieldset',
    { class: 'scopes', id: 'scopes', 'aria-describedby': 'scopes-hint' },
    h('legend', null, 'Scopes'),
    h('p', { class: 'hint', id: 'scopes-hint' }, 'What the key may do, by resource. A call outside its scopes is answered 403.'),
    h('span', { class: 'scope scope-all' }, all, h('label', { for: 'scope-all' }, 'All scopes')),
    h('div', { class: 'scope-groups' }, groups),
  );
  return { element, selected: () => boxes.filter((box) => box.checked).map((box) => box.value) };
}

function createForm(slot: HTMLElement): HTMLElement {
  const picker = scopePicker();
  const name = h('input', {
    id: 'key-name',
    name: 'name',
    type: 'text',
    required: true,
    maxlength: 100,
    autocomplete: 'off',
  }) as HTMLInputElement;
  const error = h('div', { class: 'error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit' }, 'Create key');
  const element = h(
    'form',
    { class: 'form', novalidate: true },
    error,
    h('div', { class: 'field' }, h('label', { for: 'key-name' }, 'Name'), name),
    picker.element,
    h('div', { class: 'actions' }, submit),
  ) as HTMLFormElement;
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    error.hidden = true;
    const scopes = picker.selected();
    const problem = !name.value.trim() ? 'Give the key a name.' : scopes.length === 0 ? 'Pick at least one scope.' : '';
    if (problem) {
      error.textContent = problem;
      error.hidden = false;
      return;
    }
    submit.setAttribute('disabled', '');
    api<{ data: ApiKey & { key: string } }>('POST', '/api-keys', { name: name.value.trim(), scopes })
      .then(({ data }) => {
        element.reset();
        slot.replaceChildren(revealSecret(`Key “${data.name}” created`, 'Your new API key', data.key));
        slot.querySelector<HTMLInputElement>('input')?.focus();
        void drawList(listSlot(), 1);
      })
      .catch((failure: unknown) => {
        error.textContent = failure instanceof ApiError ? failure.message : String(failure);
        error.hidden = false;
      })
      .finally(() => submit.removeAttribute('disabled'));
  });
  return element;
}

async function revoke(key: ApiKey): Promise<void> {
  const sure = await confirmDialog(
    `Revoke the key “${key.name}”?`,
    `Anything that calls the API with ${key.prefix}…${key.suffix} is refused from its next request. This cannot be undone.`,
    'Revoke key',
  );
  if (!sure) return;
  await api('DELETE', `/api-keys/${encodeURIComponent(key.id)}`);
  await drawList(listSlot(), 1);
}

function revokeButton(key: ApiKey): HTMLElement {
  if (key.revoked_at) return h('span', { class: 'muted' }, `revoked ${when(key.revoked_at)}`);
  const button = h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${key.name}` }, 'Revoke');
  button.addEventListener('click', () => {
    revoke(key).catch((failure: unknown) => listSlot().prepend(h('div', { class: 'error', role: 'alert' }, String(failure))));
  });
  return button;
}

const listSlot = () => document.getElementById('key-list')!;

async function drawList(slot: HTMLElement, pageNumber: number): Promise<void> {
  const { data, meta } = await api<KeyList>('GET', '/api-keys', undefined, { page: pageNumber, pageSize: PAGE_SIZE });
  slot.replaceChildren(
    table<ApiKey>(
      [
        { label: 'Name', cell: (key) => key.name },
        { label: 'Key', cell: (key) => h('code', null, `${key.prefix}…${key.suffix}`) },
        { label: 'Scopes', cell: (key) => h('span', { class: 'scope-list' }, key.scopes.join(', ')) },
        { label: 'Created', cell: (key) => when(key.created_at) },
        { label: 'Last used', cell: (key) => when(key.last_used_at) },
        { label: 'Status', cell: revokeButton },
      ],
      data,
      'No API keys yet.',
    ),
    pager(meta.page, meta.pageSize, meta.total, (next) => void drawList(slot, next).catch(() => refresh())),
  );
}

page(
  '/keys',
  async () => {
    const secretSlot = h('div', { id: 'secret-slot' });
    const list = h('div', { id: 'key-list', 'aria-live': 'polite' });
    const view = h(
      'section',
      null,
      h('h1', null, 'API keys'),
      h(
        'p',
        null,
        'Keys let programs call the API for the workspace ',
        h('strong', null, currentWorkspace()),
        '. The full key is shown once, when it is created.',
      ),
      secretSlot,
      h('h2', null, 'Create a key'),
      createForm(secretSlot),
      h('h2', null, 'Keys'),
      list,
    );
    // Drawn before the page is shown, so a failure shows the page's error box.
    await drawList(list, 1);
    return view;
  },
  { title: 'API keys' },
);
