import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import type { Interpreter } from '../../src/core/languages.js';
import type { SandboxLimits } from '../../src/core/sandbox/container-spec.js';
import type { OciRuntimeChoice } from '../../src/core/sandbox/engine.js';
import { ociLayout, OciEngine } from '../../src/core/sandbox/oci/oci-engine.js';
import type { OciSandbox } from '../../src/core/sandbox/oci/oci-sandbox.js';

export interface BenchOciEngine {
  engine: OciEngine;
  /** Names the cgroup of its sandboxes (bench/cpu-counters.ts). */
  instance: string;
  stop(): Promise<void>;
}

/**
 * The oci driver's own engine (runtime binary with its global options, state directory, unpacked
 * images), in a throwaway data folder of its own, on the images `npm run images` unpacked already.
 */
export async function startOciEngine(
  docker: Docker,
  images: Record<Interpreter, string>,
  limits: SandboxLimits,
  ociRuntime: OciRuntimeChoice,
  rootfsDir: string,
): Promise<BenchOciEngine> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'code-runner-bench-oci-'));
  const instance = `bench-oci-${ociRuntime}-${randomBytes(3).toString('hex')}`;
  const engine = await OciEngine.start(docker, { images, instance, limits, ociRuntime, dataDir, rootfsDir });
  return {
    engine,
    instance,
    stop: async () => {
      await engine.removeAll();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface OciRunOptions {
  /** Docker's default seccomp filter, as the driver sets it (default), or none (a measurement only, never shipped). */
  seccomp?: boolean;
  /** Environment on top of the image's (the driver adds NODE_OPTIONS for Node). */
  env?: string[];
}

/** One container of the driver's own config running `command` instead of the image's harness. */
export function startInOci(
  engine: OciEngine,
  interpreter: Interpreter,
  command: string[] | undefined,
  options: OciRunOptions = {},
): Promise<OciSandbox> {
  return engine.startCommand(interpreter, command, { env: options.env ?? [], seccomp: options.seccomp });
}

/** The oci path's churn ceiling: create, run and delete a container of the driver's config that runs `true`. */
export function ociChurnRequest(engine: OciEngine): () => Promise<void> {
  return async () => {
    const sandbox = await startInOci(engine, 'python', ['/bin/true']);
    try {
      const exit = await sandbox.exited;
      if (exit.statusCode !== 0) throw new Error(`true exited with ${exit.statusCode}`);
    } finally {
      await sandbox.dispose();
    }
  };
}

/** Where the driver's engine keeps its unpacked images for a service whose data folder is `dataDir`. */
export function ociRootfsDir(dataDir: string, rootfsDir: string | undefined): string {
  return ociLayout(dataDir, 'bench', rootfsDir).rootfs;
}
