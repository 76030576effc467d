/**
 * Form values (strings from the kit's form) to request bodies. An empty control means "not given", so the API applies its
 * default; anything typed is sent as typed, so that a wrong value earns the API's message beside its field.
 */

import { words } from './format.js';

type Values = Record<string, string | boolean>;

export function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A number control's text as a number; text that is no number is sent as is for the API to name. */
export function numberOf(values: Values, name: string): number | string | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : value;
}

/** A comma-separated list ("sql, go") as the API's string list. */
export function listOf(values: Values, name: string): string[] | undefined {
  const value = text(values, name);
  return value
    ?.split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A datetime-local value (wall-clock time in the browser's zone) as an instant with its offset. */
export function instantOf(values: Values, name: string): string | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export const choices = (items: readonly string[]) => items.map((item) => ({ value: item, label: words(item) }));

/** A select's first option that leaves the field out, so the API applies its default. */
export const unset = (label: string) => ({ value: '', label });
