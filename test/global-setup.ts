import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder of this run's own, where the test files that need dist/ agree on which one builds it. */
    serviceBuildFolder: string;
  }
}

/**
 * Builds nothing: only the tests that start the service as a process need dist/, and they build it
 * themselves (buildServiceOnce in test/support/build-once.ts), so that a run without them needs no build.
 */
export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'code-runner-build-'));
  project.provide('serviceBuildFolder', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
