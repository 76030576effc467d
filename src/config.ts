import os from 'node:os';
import { z } from 'zod';
import { platformConfigSchema } from './platform/config.js';
import { resourcesConfigSchema } from './resources/config.js';
import { envBool as bool, envInt as int, loadEnv } from './web/env.js';

/** Every setting, from the environment, validated at start (the platform's own included). Documented in the README. */
const configSchema = z
  .object({
    ...platformConfigSchema.shape,
    ...resourcesConfigSchema.shape,
    PORT: int(8080, 0),
    HOST: z.string().default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DOCKER_SOCKET: z.string().default('/var/run/docker.sock'),
    PYTHON_IMAGE: z.string().default('code-runner-python:latest'),
    NODE_IMAGE: z.string().default('code-runner-node:latest'),
    SANDBOX_RUNTIME: z.enum(['auto', 'runc', 'crun', 'runsc']).default('auto'),
    SANDBOX_DRIVER: z.enum(['docker', 'oci']).default('docker'),
    SANDBOX_ROOTFS_DIR: z.string().optional(),
    SANDBOX_INSTANCE: z
      .string()
      .regex(/^[\w.-]+$/)
      .default('default'),
    SANDBOX_MEMORY_MB: int(256, 32),
    SANDBOX_CPUS: z.coerce.number().positive().default(1),
    SANDBOX_PIDS: int(64, 8),
    SANDBOX_TMPFS_MB: int(64, 1),
    SANDBOX_NOFILE: int(256, 16),
    SANDBOX_FSIZE_MB: int(32, 1),
    EXECUTION_TIMEOUT_MS: int(15_000, 100),
    STDOUT_CAP_BYTES: int(64 * 1024, 1024),
    // Values, output and errors of one execution together; see docs/api.md ("Results") for the 4 MiB default.
    RESULT_BUDGET_BYTES: int(4 * 1024 * 1024, 64 * 1024),
    MAX_CODE_BYTES: int(64 * 1024, 1),
    MAX_TEST_CASES: int(100, 1),
    MAX_BODY_BYTES: int(1024 * 1024, 1024),
    MAX_JSON_DEPTH: int(256, 2),
    // Two per core: a CPU-bound case shares its core with at most one other, so its time limit stays meaningful.
    CONCURRENCY: int(Math.max(2, os.availableParallelism() * 2), 1),
    QUEUE_LIMIT: int(100, 0),
    // An execution that cannot start within this is answered 503 with Retry-After, so no answer comes long after the 15 s promised.
    QUEUE_WAIT_MS: int(5_000, 0),
    POOL_ENABLED: bool.default(true),
    POOL_MIN_PYTHON: int(2),
    POOL_MIN_NODE: int(2),
    POOL_MAX_PER_LANGUAGE: int(12, 0),
    POOL_REFILL_CONCURRENCY: int(4, 1),
    POOL_MAX_AGE_MS: int(5 * 60_000, 1000),
    POOL_IDLE_SHRINK_MS: int(30_000, 1000),
    SANDBOX_MAX_CONTAINERS: int(32, 1),
    // How often containers the engine refused to kill or remove are swept, and the longest wait between two removal retries.
    SANDBOX_SWEEP_INTERVAL_MS: int(30_000, 100),
    // The service's CPU precedence over its sandboxes and the engine (src/cpu-priority.ts); 0 leaves it alone.
    SERVICE_NICE: z.coerce.number().int().min(-20).max(19).default(-10),
    SANDBOX_MEMORY_BUDGET_MB: int(8192, 32),
    // Scale-out (docs/scaling.md): all = today's single node; api = the API without Docker, executions sent to RUNNER_URL;
    // runner = executions only, on the internal endpoint, with no database, Redis or key store.
    SERVICE_ROLE: z.enum(['all', 'api', 'runner']).default('all'),
    RUNNER_URL: z.url({ protocol: /^https?$/ }).optional(),
    RUNNER_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
    // Comma-separated proxy addresses or CIDRs whose X-Forwarded-For is honoured; empty: none (the peer is the client).
    TRUST_PROXY: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    DASHBOARD_ENABLED: bool.default(true),
  })
  .superRefine((config, context) => {
    const need = (key: 'RUNNER_URL' | 'RUNNER_TOKEN', role: string) => {
      if (!config[key]) context.addIssue({ code: 'custom', path: [key], message: `required when SERVICE_ROLE=${role}` });
    };
    if (config.SERVICE_ROLE === 'api') need('RUNNER_URL', 'api');
    if (config.SERVICE_ROLE !== 'all') need('RUNNER_TOKEN', config.SERVICE_ROLE);
  });

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadEnv(configSchema, env);
}
