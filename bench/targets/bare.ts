import type { HarnessJob } from '../../src/core/execute/run-job.js';
import { runJobThrough } from './run-command.js';

const COMMANDS: Record<'python' | 'node', string[]> = {
  python: ['python3', '-I', '-S', '-B', 'runners/python/harness.py'],
  node: ['node', 'runners/node/harness.cjs'],
};

/** One harness process per request, no container: the physical floor. */
export function bareRequest(runtime: 'python' | 'node', job: HarnessJob, cases: number): () => Promise<void> {
  const [command, ...args] = COMMANDS[runtime];
  return () => runJobThrough(command, args, job, cases, `bare ${runtime}`);
}
