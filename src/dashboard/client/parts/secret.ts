import { h } from '../kit/dom.js';

/**
 * Shows a secret the API answers only once (an API key, a webhook signing secret) with a copy button.
 * The secret lives in this element only: nothing stores it, and "Done" (or leaving the page) removes it.
 */
export function revealSecret(title: string, label: string, secret: string): HTMLElement {
  const input = h('input', {
    id: 'revealed-secret',
    type: 'text',
    readonly: true,
    spellcheck: 'false',
    autocomplete: 'off',
  }) as HTMLInputElement;
  input.value = secret;
  input.addEventListener('focus', () => input.select());
  const status = h('span', { class: 'copy-status', role: 'status' });
  const copy = h('button', { type: 'button' }, 'Copy');
  copy.addEventListener('click', () => {
    navigator.clipboard.writeText(input.value).then(
      () => (status.textContent = 'Copied to the clipboard.'),
      () => {
        input.select();
        status.textContent = 'Copying was refused: the text is selected, press Ctrl+C.';
      },
    );
  });
  const panel = h(
    'div',
    { class: 'reveal', role: 'region', 'aria-labelledby': 'reveal-title' },
    h('h2', { id: 'reveal-title' }, title),
    h(
      'p',
      { class: 'warning' },
      h('strong', null, 'Copy it now: you will not see it again.'),
      ' It cannot be recovered later; if it is lost, create a new one.',
    ),
    h('label', { for: 'revealed-secret' }, label),
    h('div', { class: 'copy-row' }, input, copy),
    status,
  );
  const done = h('button', { type: 'button', class: 'secondary' }, 'Done');
  done.addEventListener('click', () => panel.remove());
  panel.append(h('div', { class: 'actions' }, done));
  return panel;
}
