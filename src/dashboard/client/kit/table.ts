import { h, type Child } from './dom.js';

/** A table with a header row; `empty` is said instead when there are no rows. Wide tables scroll on a narrow screen. */
export function table<T>(columns: { label: string; cell: (row: T) => Child }[], rows: T[], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      null,
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          columns.map((column) => h('th', { scope: 'col' }, column.label)),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((row) =>
          h(
            'tr',
            null,
            columns.map((column) => h('td', { 'data-label': column.label }, column.cell(row))),
          ),
        ),
      ),
    ),
  );
}

/** Previous/next buttons and "page N of M"; nothing when everything fits on one page. */
export function pager(page: number, pageSize: number, total: number, go: (page: number) => void): HTMLElement {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return h('nav', { class: 'pager', 'aria-label': 'Pages', hidden: true });
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    h('button', { type: 'button', disabled: page <= 1, onclick: () => go(page - 1) }, 'Previous'),
    h('span', { 'aria-live': 'polite' }, `Page ${page} of ${pages} (${total} in all)`),
    h('button', { type: 'button', disabled: page >= pages, onclick: () => go(page + 1) }, 'Next'),
  );
}
