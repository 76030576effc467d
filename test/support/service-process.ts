import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach } from 'vitest';
import { SERVICE_ARGS, SERVICE_ENV } from './build-service.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
/** The most of a process's output a failure prints: its last lines say why it failed. */
const OUTPUT_SHOWN = 20_000;

/**
 * The built service (dist/, call buildServiceOnce first) running as a child process, as `npm start`
 * runs it: for tests that kill it, restart it on the same data, or run two of it side by side.
 */
export class ServiceProcess {
  private readonly chunks: string[] = [];
  private readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** http://127.0.0.1:<port>, from the service's ready line. */
  url = '';

  private constructor(
    readonly name: string,
    readonly env: Record<string, string>,
    private readonly child: ChildProcess,
    /** A data folder this helper made (none was given): removed after the test. */
    readonly ownDataDir: boolean,
  ) {
    const keep = (chunk: Buffer) => void this.chunks.push(chunk.toString('utf8'));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /**
   * Starts the service with `env` over a light default (no warm sandbox containers, its own
   * container label, a free loopback port, info logs for the ready line) and waits until it is ready
   * and /healthz answers. Without DATA_DIR in `env`, a new folder, removed after the test; to restart on
   * the same data, start again with the first one's `env`.
   */
  static async start(name: string, env: Record<string, string> = {}, timeoutMs = 60_000): Promise<ServiceProcess> {
    const settings: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      POOL_MIN_PYTHON: '0',
      POOL_MIN_NODE: '0',
      SANDBOX_INSTANCE: `test-${randomBytes(4).toString('hex')}`,
      RATE_LIMIT_ANONYMOUS: '1000000',
      ...env,
      DATA_DIR: env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'service-process-')),
    };
    const child = spawn(process.execPath, SERVICE_ARGS, {
      cwd: root,
      env: { ...process.env, ...SERVICE_ENV, ...settings },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(name, settings, child, env.DATA_DIR === undefined);
    running.push(service);
    try {
      await service.ready(timeoutMs);
    } catch (error) {
      // Not ready in time (or not healthy): it must not outlive the test that gave up on it.
      await service.kill('SIGKILL');
      throw error;
    }
    return service;
  }

  /** Everything the process printed (stdout and stderr as they came), its tail when long. */
  output(): string {
    const all = this.chunks.join('');
    return all.length > OUTPUT_SHOWN ? `…${all.slice(-OUTPUT_SHOWN)}` : all;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Sends the signal and waits for the process to end. */
  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.running) this.child.kill(signal);
    return this.exit;
  }

  /** The built admin CLI with this service's settings: it goes through the service's admin endpoint, or opens the database. */
  async cli(...args: string[]): Promise<string> {
    try {
      const { stdout } = await run(process.execPath, ['dist/cli/main.js', ...args], { cwd: root, env: { ...process.env, ...this.env } });
      return stdout.trim();
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      throw new Error(`cli ${args.join(' ')} exited ${failed.code}: ${failed.stderr}${failed.stdout}`);
    }
  }

  /** Creates a workspace and an API key with every scope through the CLI; returns the key. */
  async workspaceKey(slug: string, plan = 'enterprise'): Promise<string> {
    await this.cli('workspace', 'create', slug, '--plan', plan);
    return (await this.cli('key', 'create', '--workspace', slug, '--scopes', 'all')).split('\n').at(-1)!;
  }

  private async ready(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.url) {
      const line = this.chunks
        .join('')
        .split('\n')
        .find((text) => text.includes('"code runner ready"'));
      if (line) this.url = (JSON.parse(line) as { url: string }).url;
      else if (!this.running || Date.now() > deadline) throw this.failure('did not become ready');
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const health = await fetch(`${this.url}/healthz`).catch((error: Error) => error);
    if (health instanceof Error || !health.ok)
      throw this.failure(`answered /healthz with ${health instanceof Error ? health.message : health.status}`);
  }

  private failure(what: string): Error {
    const state = this.running ? 'still running' : `exited (${this.child.exitCode ?? this.child.signalCode})`;
    return new Error(`service ${this.name} ${what}; ${state}. Its output:\n${this.output()}`);
  }
}

const running: ServiceProcess[] = [];

/**
 * For a test file that starts service processes: after each test, prints the output of every process
 * it started when the test failed, kills those still running and removes the data folders it made.
 */
export function watchServiceProcesses(): void {
  afterEach(async ({ task }) => {
    const started = running.splice(0);
    if (task.result?.state === 'fail')
      for (const service of started) console.error(`--- output of service ${service.name} (pid ${service.pid}) ---\n${service.output()}`);
    await Promise.all(started.map((service) => service.kill('SIGKILL')));
    for (const service of started) if (service.ownDataDir) rmSync(service.env.DATA_DIR, { recursive: true, force: true });
  });
}
