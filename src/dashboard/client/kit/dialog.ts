import { h } from './dom.js';

/**
 * Asks before something that cannot be undone, in a modal <dialog> (focus moves into it, Escape
 * cancels, focus returns where it was). Resolves true only when the confirming button is pressed.
 */
export function confirmDialog(question: string, detail: string, confirmLabel: string): Promise<boolean> {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { class: 'confirm', 'aria-labelledby': 'confirm-title' },
      h('h2', { id: 'confirm-title' }, question),
      h('p', null, detail),
      h(
        'form',
        { method: 'dialog', class: 'actions' },
        h('button', { type: 'submit', value: 'cancel', class: 'secondary', autofocus: true }, 'Cancel'),
        h('button', { type: 'submit', value: 'confirm', class: 'danger' }, confirmLabel),
      ),
    ) as HTMLDialogElement;
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener?.focus();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.appendChild(dialog);
    dialog.showModal();
  });
}
