import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { buildService } from './build-service.js';

const POLL_MS = 100;

/**
 * Compiles the service to dist/ at most once per test run, for the test files that start it as a
 * process (call it in their beforeAll). Files run in parallel workers: the first to claim the run's
 * folder (test/global-setup.ts) builds, the others wait for its verdict instead of racing it.
 */
export async function buildServiceOnce(): Promise<void> {
  const folder = inject('serviceBuildFolder');
  const verdict = path.join(folder, 'verdict');
  try {
    mkdirSync(path.join(folder, 'claimed'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    while (!existsSync(verdict)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const failure = readFileSync(verdict, 'utf8');
    if (failure) throw new Error(`building the service failed in another test file: ${failure}`);
    return;
  }
  let failure = '';
  try {
    await buildService();
  } catch (error) {
    failure = (error as Error).message;
    throw error;
  } finally {
    // written whole and then renamed, so that a waiting worker never reads half a verdict
    writeFileSync(`${verdict}.partial`, failure);
    renameSync(`${verdict}.partial`, verdict);
  }
}
