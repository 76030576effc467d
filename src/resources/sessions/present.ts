import { present } from '../shared/present.js';
import type { SessionItem } from './shapes.js';
import type { sessions } from './table.js';

export type SessionRow = typeof sessions.$inferSelect;

/** A session as the API answers it; `forced` only steers the duplicate rule and stays inside. */
export function presentSession(row: SessionRow): SessionItem {
  const { forced: _forced, ...session } = present(row);
  return session as SessionItem;
}
