import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVICE_ARGS, SERVICE_ENV } from '../../test/support/build-service.js';

export interface RunningService {
  url: string;
  child: ChildProcess;
  /** SANDBOX_INSTANCE: names the oci driver's cgroup of the service's sandboxes. */
  instance: string;
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** A throwaway data folder, and no anonymous rate limit in the way of a load generator on loopback. */
export function benchServiceEnv(): Record<string, string> {
  return {
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'code-runner-bench-')),
    RATE_LIMIT_ANONYMOUS: '100000000',
    ADMIN_ENDPOINT: 'false',
  };
}

/**
 * Starts the built service (see buildService in test/support/build-service.ts) as its own process,
 * so its RSS is its own, and waits until it is ready and warm.
 */
export async function startServiceProcess(port: number, env: Record<string, string>): Promise<RunningService> {
  const instance = `bench-${port}`;
  const child = spawn(process.execPath, SERVICE_ARGS, {
    env: {
      ...process.env,
      ...SERVICE_ENV,
      ...benchServiceEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANDBOX_INSTANCE: instance,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // Up to a minute: the oci driver unpacks the runner images on its first start.
  for (let i = 0; i < 600; i += 1) {
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error('the service exited during start-up');
    await sleep(100);
  }
  await sleep(2_000);
  return {
    url,
    child,
    instance,
    peakRssMb: () => {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return match ? Number(match[1]) / 1024 : NaN;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** One execute call that must answer 200 with `cases` results, every one passed (or, with `passing` false, every one failed). */
export function serviceRequest(url: string, body: unknown, cases: number, passing = true): () => Promise<void> {
  const payload = JSON.stringify(body);
  return async () => {
    const response = await fetch(`${url}/api/v1/code/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    const json = (await response.json()) as { results?: Array<{ passed: boolean }> };
    if (response.status !== 200 || json.results?.length !== cases || !json.results.every((r) => r.passed === passing)) {
      throw new Error(`service answered ${response.status}`);
    }
  };
}
