import { form, type Field } from '../../kit/form.js';
import { navigate } from '../../kit/router.js';
import { pager } from '../../kit/table.js';
import type { ListOf } from './model.js';

/** The page number of a list's hash query (`#/sessions?page=2`). */
export function pageOf(query: URLSearchParams): number {
  const page = Number(query.get('page'));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** The filters of a list from its hash query: the named parameters that are set. */
export function filtersOf(query: URLSearchParams, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => [[name, query.get(name) ?? '']]).filter(([, value]) => value !== ''));
}

function go(base: string, params: Record<string, string>): void {
  const search = new URLSearchParams(params).toString();
  navigate(search ? `${base}?${search}` : base);
}

/**
 * A filter form whose submission becomes the hash query, so a filtered list has an address (back button, bookmark) and
 * starts again at page 1. The fields' values are the current filters.
 */
export function filterForm(base: string, fields: Field[], query: URLSearchParams): HTMLFormElement {
  const current = filtersOf(
    query,
    fields.map((field) => field.name),
  );
  const filled = fields.map((field) => ({ ...field, value: current[field.name] ?? '' }));
  const element = form(filled, 'Filter', async (values) => {
    const set = Object.entries(values).flatMap(([name, value]) =>
      typeof value === 'string' && value.trim() !== '' ? [[name, value.trim()]] : [],
    );
    go(base, Object.fromEntries(set));
  });
  element.classList.add('iv-filters');
  element.setAttribute('role', 'search');
  element.setAttribute('aria-label', 'Filters');
  return element;
}

/** The kit's pager for a list, moving through the hash query with the filters kept. */
export function pagerOf(base: string, list: ListOf<unknown>, query: URLSearchParams, filterNames: string[]): HTMLElement {
  return pager(list.meta.page, list.meta.pageSize, list.meta.total, (page) =>
    go(base, { ...filtersOf(query, filterNames), page: String(page) }),
  );
}

/** Whether any of these filters is set: an empty list then says "no match" rather than "none yet". */
export const isFiltered = (query: URLSearchParams, names: string[]) => Object.keys(filtersOf(query, names)).length > 0;
