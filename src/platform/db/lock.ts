import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'pglite.lock';

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the embedded database in this folder, if that process is still alive. */
function lockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PGlite must be opened by one process at a time, and it does not guard this itself; a pid file
 * does, taking over from a holder that has died.
 */
export function acquireLock(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  const holder = lockHolder(dataDir);
  if (holder !== undefined) {
    throw new Error(
      holder === process.pid
        ? `the embedded database in DATA_DIR ${dataDir} is already open in this process`
        : `the embedded database in DATA_DIR ${dataDir} is in use by process ${holder} (another service process, or the CLI); ` +
            'it opens in one process only: several service nodes need DATABASE_URL (a PostgreSQL server)',
    );
  }
  rmSync(file, { force: true });
  // Exclusive create: of two processes taking over a stale lock at once, one fails here.
  writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
  return () => rmSync(file, { force: true });
}
