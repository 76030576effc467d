import { api, ApiError } from '../../kit/api.js';
import type { ListOf, One } from './model.js';

/** The API's largest page: the pickers of these pages offer at most this many of the newest items. */
export const LARGEST_PAGE = 100;

/** One item, or null when the API answers 404 (not there, not yet there, or another workspace's); other errors fail. */
export async function readOrNull<T>(path: string): Promise<T | null> {
  try {
    return (await api<One<T>>('GET', path)).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** Reads each distinct id once, in parallel; an id the workspace cannot read (deleted since) is left out of the map. */
export async function byId<T>(path: string, ids: (string | null)[]): Promise<Map<string, T>> {
  const distinct = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = await Promise.all(distinct.map(async (id) => [id, await readOrNull<T>(`${path}/${id}`)] as const));
  return new Map(found.filter((entry): entry is readonly [string, Awaited<T>] => entry[1] !== null));
}

/** The newest items of a list, for a select. */
export async function newest<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T[]> {
  return (await api<ListOf<T>>('GET', path, undefined, { ...query, pageSize: LARGEST_PAGE })).data;
}
