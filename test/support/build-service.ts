import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * How `npm start` and the service image run the built service (test/service-command.test.ts keeps
 * them in step). A 2 MB young generation instead of V8's 16 MB keeps about 25 MB less resident under
 * load; measured at concurrency 8, the throughput did not change.
 */
export const SERVICE_ARGS = ['--max-semi-space-size=2', 'dist/main.js'];

/**
 * The environment `npm start` and the image add. glibc: blocks of 32 KiB and more come from mmap and
 * go back when freed; by default its threshold rises to the largest block ever freed (typescript.js and
 * PGlite's WebAssembly, 9 MB each, at start-up), and 30-40 MB of freed heap stayed resident
 * (docs/performance.md, "Memory").
 */
export const SERVICE_ENV = { MALLOC_MMAP_THRESHOLD_: '32768' };

/**
 * Compiles the service to dist/, as `npm start` runs it: plain node, no TypeScript loader in the process.
 * Asynchronous, so that a test worker keeps answering vitest during the build (tens of seconds on a loaded machine).
 */
export async function buildService(): Promise<void> {
  try {
    await promisify(execFile)('npm', ['run', '-s', 'build'], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${stdout}${stderr}`, { cause: error });
  }
}
