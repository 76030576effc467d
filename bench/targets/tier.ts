import { randomBytes } from 'node:crypto';
import { startServiceProcess, type RunningService } from './service.js';

export interface RunningTier {
  /** The api node's address: where clients send executions. */
  url: string;
  api: RunningService;
  runner: RunningService;
  stop(): Promise<void>;
}

/** A runner node on `port` and an api node on `port + 1` in front of it, both as their own processes (SERVICE_ROLE=runner / api). */
export async function startTier(port: number, env: Record<string, string>): Promise<RunningTier> {
  const token = randomBytes(24).toString('hex');
  const runner = await startServiceProcess(port, { ...env, SERVICE_ROLE: 'runner', RUNNER_TOKEN: token });
  try {
    const api = await startServiceProcess(port + 1, { ...env, SERVICE_ROLE: 'api', RUNNER_TOKEN: token, RUNNER_URL: runner.url });
    return {
      url: api.url,
      api,
      runner,
      stop: async () => {
        await api.stop();
        await runner.stop();
      },
    };
  } catch (error) {
    await runner.stop();
    throw error;
  }
}
