import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { encodeJob, type HarnessJob } from '../../src/core/execute/run-job.js';
import { countResults } from './count-results.js';

/** Runs one harness job through a command (a bare harness, or `docker run`) and checks every case answered. */
export function runJobThrough(command: string, args: string[], job: HarnessJob, cases: number, label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const nonce = randomBytes(16).toString('hex');
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', () => {
      const results = countResults(out, nonce);
      if (results === cases) resolve();
      else reject(new Error(`${label}: ${results}/${cases} results`));
    });
    child.stdin.end(`${encodeJob(job, nonce)}\n`);
  });
}
