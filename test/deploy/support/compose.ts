import { execFile } from 'node:child_process';

/** Debian's docker-compose 1.29, which the README and docs/deploy.md name. */
const COMPOSE = '/usr/bin/docker-compose';

/** What deploy/up.sh writes to deploy/.env, with values good enough for a config check. */
export const COMPOSE_SECRETS: Record<string, string> = {
  RUNNER_TOKEN: 'r'.repeat(64),
  SESSION_SECRET: 's'.repeat(64),
  POSTGRES_PASSWORD: 'p'.repeat(64),
  GRAFANA_ADMIN_PASSWORD: 'g'.repeat(64),
  DOCKER_GID: '999',
};

export interface ComposeRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `docker-compose -f <file> <args>` with exactly `env` (plus PATH), so that nothing of this machine's environment leaks in. */
export function compose(file: string, args: string[], env: Record<string, string>): Promise<ComposeRun> {
  return new Promise((resolve) => {
    execFile(
      COMPOSE,
      ['-f', file, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ status, stdout, stderr: stderr + (error && status === null ? String(error) : '') });
      },
    );
  });
}
