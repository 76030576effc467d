import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SandboxLimits } from '../container-spec.js';
import type { OciSeccomp } from './seccomp.js';
import { ociSpec } from './spec.js';

const run = promisify(execFile);

/** Reads a process's installed filter back from the kernel (ptrace); Node cannot ptrace. */
const READER = fileURLToPath(new URL('./read-seccomp-filter.py', import.meta.url));
/** struct sock_filter: u16 code, u8 jt, u8 jf, u32 k. */
const INSTRUCTION_BYTES = 8;
const PROBE_TIMEOUT_MS = 20_000;

export interface SeccompCompileInput {
  /** The crun binary: the program is the one this binary (and its libseccomp) makes of the profile. */
  runtimeBinary: string;
  seccomp: OciSeccomp;
  /** An unpacked runner image holding `sleep`, the root of the throwaway container. */
  rootfs: string;
  limits: SandboxLimits;
  /** Where compiled programs are kept (`<dataDir>/oci/seccomp`). */
  cacheDir: string;
  /** The throwaway container's cgroup, under the instance's so that a sweep removes a leftover. */
  cgroupsPath: string;
}

export type CompiledSeccomp = { bpf: string; cached: boolean } | { reason: string };

/**
 * The BPF program crun installs for `seccomp`, base64-encoded for the annotation
 * `run.oci.seccomp_bpf_data`: taken from the cache, or read from the kernel in a throwaway container
 * started with the profile, so it is byte for byte what crun compiles. crun then loads it as it is
 * instead of compiling the profile again for every container. A reason instead when it cannot be had
 * (the caller leaves the compiling to crun).
 */
export async function compiledSeccompFilter(input: SeccompCompileInput): Promise<CompiledSeccomp> {
  try {
    const file = path.join(input.cacheDir, `${await cacheKey(input)}.bpf`);
    const cached = await readFile(file).catch(() => undefined);
    // A cache file cut short or damaged is compiled again rather than given to crun.
    if (cached && isProgram(cached)) return { bpf: cached.toString('base64'), cached: true };
    const program = await readInstalledFilter(input);
    if (!isProgram(program)) throw new Error(`not a BPF program: ${program.length} bytes`);
    await mkdir(input.cacheDir, { recursive: true, mode: 0o700 });
    const partial = `${file}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, program, { mode: 0o600 });
    await rename(partial, file);
    return { bpf: program.toString('base64'), cached: false };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

/**
 * What the compiled program depends on: the profile (already resolved for this kernel and
 * architecture), the crun build, the architecture, and the kernel (libseccomp asks it which features
 * it has).
 */
async function cacheKey(input: SeccompCompileInput): Promise<string> {
  const { stdout: version } = await run(input.runtimeBinary, ['--version']);
  return createHash('sha256')
    .update(JSON.stringify([input.seccomp, version, process.arch, os.release()]))
    .digest('hex');
}

function isProgram(program: Buffer): boolean {
  return program.length > 0 && program.length % INSTRUCTION_BYTES === 0;
}

/** Starts `sleep` in a container of the driver's spec with the profile and reads its filter back. */
async function readInstalledFilter(input: SeccompCompileInput): Promise<Buffer> {
  const id = `seccomp-probe-${randomBytes(6).toString('hex')}`;
  const probe = path.join(input.cacheDir, id);
  const state = path.join(probe, 'state');
  const bundle = path.join(probe, 'bundle');
  await mkdir(state, { recursive: true, mode: 0o700 });
  await mkdir(bundle, { recursive: true, mode: 0o700 });
  const spec = ociSpec({
    rootfs: input.rootfs,
    image: { env: [], workingDir: '/tmp', entrypoint: ['/bin/sleep', '60'], cmd: [] },
    limits: input.limits,
    runtime: 'crun',
    env: [],
    cgroupsPath: input.cgroupsPath,
    seccomp: input.seccomp,
  });
  await writeFile(path.join(bundle, 'config.json'), JSON.stringify(spec));
  const crun = (...args: string[]) => run(input.runtimeBinary, ['--root', state, ...args], { timeout: PROBE_TIMEOUT_MS });
  const child = spawn(input.runtimeBinary, ['--root', state, 'run', '--bundle', bundle, id], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    const pid = await filteredSleepPid(
      crun,
      id,
      () => child.exitCode !== null,
      () => stderr,
    );
    const { stdout } = await run('python3', [READER, String(pid)], { timeout: PROBE_TIMEOUT_MS });
    return Buffer.from(stdout.trim(), 'base64');
  } finally {
    await crun('kill', id, 'KILL').catch(() => undefined);
    await Promise.race([exited, delay(PROBE_TIMEOUT_MS)]);
    await crun('delete', '--force', id).catch(() => undefined);
    await rm(probe, { recursive: true, force: true });
  }
}

/**
 * The container's pid once `sleep` runs in it: crun installs the filter just before it executes the
 * process, so a process named sleep with Seccomp 2 holds the whole filter.
 */
async function filteredSleepPid(
  crun: (...args: string[]) => Promise<{ stdout: string }>,
  id: string,
  gone: () => boolean,
  stderr: () => string,
): Promise<number> {
  const deadline = Date.now() + PROBE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gone()) throw new Error(`the probe container stopped: ${stderr().trim()}`);
    const pid = await crun('state', id).then(
      ({ stdout }) => (JSON.parse(stdout) as { pid?: number }).pid,
      () => undefined,
    );
    if (pid) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      if (/^Name:\tsleep$/m.test(status) && /^Seccomp:\t2$/m.test(status)) return pid;
    }
    await delay(20);
  }
  throw new Error(`the probe container did not start sleep in ${PROBE_TIMEOUT_MS} ms: ${stderr().trim()}`);
}
