import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { countResults } from './count-results.js';
import { encodeJob, type HarnessJob } from '../../src/core/execute/run-job.js';

const COMMANDS: Record<'python' | 'node', string[]> = {
  python: ['python3', '-I', '-S', '-B', 'runners/python/harness.py'],
  node: ['node', 'runners/node/harness.cjs'],
};

/** One harness process per request, no container: the physical floor. */
export function bareRequest(runtime: 'python' | 'node', job: HarnessJob, cases: number): () => Promise<void> {
  return () => new Promise((resolve, reject) => {
    const nonce = randomBytes(16).toString('hex');
    const [command, ...args] = COMMANDS[runtime];
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.on('error', reject);
    child.on('close', () => {
      const results = countResults(out, nonce);
      if (results === cases) resolve();
      else reject(new Error(`bare ${runtime}: ${results}/${cases} results`));
    });
    child.stdin.end(`${encodeJob(job, nonce)}\n`);
  });
}
