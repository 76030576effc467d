import { execFileSync } from 'node:child_process';
import type { HarnessJob } from '../../src/core/execute/run-job.js';
import { imageStartCommands } from '../../test/harness/image-start.js';
import { runJobThrough } from './run-command.js';

/**
 * The interpreter itself, not a version-manager shim in front of it (pyenv's `python3` is a shell
 * script that adds about 70 ms to every start, which would inflate the floor).
 */
function realExecutable(command: string, probe: string[]): string {
  return execFileSync(command, probe, { encoding: 'utf8' }).trim();
}

let commands: { python: string[]; node: string[] } | undefined;

/**
 * The harnesses started as the runner images start them (Python from bytecode, Node from a startup
 * snapshot, docs/performance.md "Start-up"): the floor gets the same start-up cuts as the sandboxes.
 */
function harnessCommands(): { python: string[]; node: string[] } {
  commands ??= imageStartCommands(
    realExecutable('python3', ['-c', 'import sys; print(sys.executable)']),
    realExecutable('node', ['-p', 'process.execPath']),
  );
  return commands;
}

/** One harness process per request, no container: the physical floor. */
export function bareRequest(runtime: 'python' | 'node', job: HarnessJob, cases: number): () => Promise<void> {
  const [command, ...args] = harnessCommands()[runtime];
  return () => runJobThrough(command, args, job, cases, `bare ${runtime}`);
}
