import { LosslessNumber } from 'lossless-json';
import { Runner, type RunnerSettings } from '../../src/core/runner.js';
import { FakeEngine, type HarnessScript } from './fake-sandbox.js';

/**
 * Settings for a runner on fake sandboxes: no warm pool (each job starts its own sandbox, so a test
 * sees every start), small limits so that caps and deadlines are quick to reach.
 */
function fakeSettings(overrides: Partial<RunnerSettings> = {}): RunnerSettings {
  return {
    images: { python: 'fake-python', node: 'fake-node' },
    ociRuntime: 'auto',
    instance: 'fake',
    limits: { memoryMb: 256, cpus: 1, pids: 64, tmpfsMb: 16, nofile: 64, fsizeMb: 8 },
    request: { maxCodeBytes: 4096, maxTestCases: 20, maxDepth: 16, maxCaseTimeoutMs: 2_000 },
    timeoutMs: 2_000,
    stdoutCapBytes: 64,
    concurrency: 2,
    queueLimit: 4,
    queueWaitMs: 2_000,
    pool: {
      enabled: false,
      minIdle: { python: 0, node: 0 },
      maxPerInterpreter: 0,
      refillConcurrency: 1,
      maxAgeMs: 60_000,
      idleShrinkMs: 60_000,
    },
    maxContainers: 8,
    ...overrides,
  };
}

export function fakeRunner(script: HarnessScript, overrides: Partial<RunnerSettings> = {}): { runner: Runner; engine: FakeEngine } {
  const engine = new FakeEngine(script);
  return { runner: new Runner(engine, fakeSettings(overrides)), engine };
}

/** A number as the lossless body parser hands it over, keeping its text (`3.0`, digits beyond 2^53). */
export const num = (text: string): LosslessNumber => new LosslessNumber(text);
