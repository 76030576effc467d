import { databaseRefusal } from '../../platform/index.js';
import { ConflictError } from '../../web/errors.js';

/**
 * Runs a delete; when a foreign key refuses it (SQLSTATE 23503), answers 409 naming what still
 * points to the resource. Counting happens only then, so the common delete costs one statement.
 */
export async function dependantsConflict(
  deletion: Promise<unknown[]>,
  what: string,
  count: () => Promise<Array<[noun: string, n: number]>>,
): Promise<boolean> {
  try {
    return (await deletion).length > 0;
  } catch (error) {
    if (databaseRefusal(error)?.code !== '23503') throw error;
    const named = (await count()).filter(([, n]) => n > 0).map(([noun, n]) => `${n} ${noun}${n === 1 ? '' : 's'}`);
    throw new ConflictError(`${what} has ${named.join(' and ') || 'dependants'}; delete or reassign them first`);
  }
}
