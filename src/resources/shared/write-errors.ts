import { databaseRefusal } from '../../platform/index.js';
import { ConflictError, ValidationError } from '../../web/errors.js';

/**
 * The constraints a resource's writes can hit, by name: a foreign key that names a body field (400
 * on that field), or any constraint whose refusal is a conflict with the current state (409).
 */
export interface Constraints {
  references?: Record<string, { field: string; noun: string }>;
  conflicts?: Record<string, string>;
}

/**
 * Turns a refused write into what the caller can act on: an id that names nothing in the
 * workspace is a 400 on its field, a duplicate a 409. Anything else is rethrown.
 */
function explainRefusal(error: unknown, constraints: Constraints): never {
  const refusal = databaseRefusal(error);
  const name = refusal?.constraint ?? '';
  const reference = constraints.references?.[name];
  if (refusal?.code === '23503' && reference) {
    throw ValidationError.field([reference.field], `no ${reference.noun} with this id in the workspace`);
  }
  const conflict = constraints.conflicts?.[name];
  if (conflict && (refusal?.code === '23505' || refusal?.code === '23503')) throw new ConflictError(conflict);
  throw error;
}

/** Runs a write, explaining a refusal by its constraint. */
export async function writing<T>(write: Promise<T>, constraints: Constraints): Promise<T> {
  try {
    return await write;
  } catch (error) {
    return explainRefusal(error, constraints);
  }
}
