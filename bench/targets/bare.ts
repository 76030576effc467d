import { execFileSync } from 'node:child_process';
import type { HarnessJob } from '../../src/core/execute/run-job.js';
import { runJobThrough } from './run-command.js';

/**
 * The interpreter itself, not a version-manager shim in front of it (pyenv's `python3` is a shell
 * script that adds about 70 ms to every start, which would inflate the floor).
 */
function realExecutable(command: string, probe: string[]): string {
  return execFileSync(command, probe, { encoding: 'utf8' }).trim();
}

const COMMANDS: Record<'python' | 'node', () => string[]> = {
  python: () => [realExecutable('python3', ['-c', 'import sys; print(sys.executable)']), '-I', '-S', '-B', 'runners/python/harness.py'],
  node: () => [realExecutable('node', ['-p', 'process.execPath']), 'runners/node/harness.cjs'],
};

/** One harness process per request, no container: the physical floor. */
export function bareRequest(runtime: 'python' | 'node', job: HarnessJob, cases: number): () => Promise<void> {
  const [command, ...args] = COMMANDS[runtime]();
  return () => runJobThrough(command, args, job, cases, `bare ${runtime}`);
}
