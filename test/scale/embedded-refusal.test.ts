import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildServiceOnce } from '../support/build-once.js';
import { ServiceProcess, watchServiceProcesses } from '../support/service-process.js';

/* A second node on the embedded database is refused at start, saying why and what to do instead. */

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'embedded-refusal-'));
beforeAll(async () => {
  await buildServiceOnce();
}, 180_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
watchServiceProcesses();

it('a second service process on the same embedded database stops at start with a clear message', async () => {
  const first = await ServiceProcess.start('first', { DATA_DIR: dataDir });
  const second = await ServiceProcess.start('second', { DATA_DIR: dataDir }).then(
    () => new Error('the second node started'),
    (error: Error) => error,
  );
  expect(second.message).toContain(
    `the embedded database in DATA_DIR ${dataDir} is in use by process ${first.pid} (another service process, or the CLI); ` +
      'it opens in one process only: several service nodes need DATABASE_URL (a PostgreSQL server)',
  );
  expect(second.message).toContain('exited (1)');
  // The first one is untouched.
  expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
});
