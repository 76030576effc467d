import { h, type Child } from '../../kit/dom.js';

/** A page: its heading (the router focuses it) and its sections. */
export function layout(title: string, ...children: Child[]): HTMLElement {
  return h('div', { class: 'iv-page' }, h('h1', null, title), ...children);
}

/** A titled part of a page, labelled by its heading for screen readers' landmarks. */
export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'iv-section', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

export const link = (href: string, text: string) => h('a', { href }, text);

/** Term and value pairs; a null value shows as a dash. */
export function facts(pairs: [string, Child][]): HTMLElement {
  return h(
    'dl',
    { class: 'iv-facts' },
    pairs.map(([term, value]) => h('div', null, h('dt', null, term), h('dd', null, value ?? '—'))),
  );
}

/** A form behind a disclosure, so a long list stays first on a narrow screen; the form is named after it. */
export function creator(summary: string, form: HTMLFormElement, open = false): HTMLElement {
  form.setAttribute('aria-label', summary);
  return h('details', { class: 'iv-create', open }, h('summary', null, summary), form);
}

/**
 * A part of a page that can be drawn again in place (after a create on the same page), with a polite live region
 * that says what changed.
 */
export function redrawable(draw: () => Promise<Node>): { element: HTMLElement; redraw(message: string): Promise<void> } {
  const body = h('div');
  const status = h('p', { class: 'iv-status', role: 'status' });
  const element = h('div', null, status, body);
  return {
    element,
    async redraw(message: string) {
      body.replaceChildren(await draw());
      status.textContent = message;
    },
  };
}
