// The oci driver's seccomp filter compiled once (run.oci.seccomp_bpf_data): the program handed to
// crun is the one crun compiles itself, byte for byte, and a container given it refuses exactly the
// system calls a container that compiled the profile refuses. Real crun, real kernel; as root.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDocker } from '../../src/core/sandbox/engine.js';
import { removeCgroups } from '../../src/core/sandbox/container-cgroup.js';
import { prepareRootfs } from '../../src/core/sandbox/oci/rootfs.js';
import { findExecutable } from '../../src/core/sandbox/oci/runtime-cli.js';
import { compiledSeccompFilter } from '../../src/core/sandbox/oci/seccomp-bpf.js';
import { ociSeccomp } from '../../src/core/sandbox/oci/seccomp.js';
import { ociSpec } from '../../src/core/sandbox/oci/spec.js';

const run = promisify(execFile);
const CRUN = findExecutable('crun') ?? 'crun';
const READER = fileURLToPath(new URL('../../src/core/sandbox/oci/read-seccomp-filter.py', import.meta.url));
/** Shared with the other oci test files, so the runner image is unpacked once. */
const ROOTFS_DIR = path.join(os.tmpdir(), 'code-runner-oci-rootfs');
const LIMITS = { memoryMb: 256, cpus: 1, pids: 64, tmpfsMb: 64, nofile: 256, fsizeMb: 32 };
const SECCOMP = ociSeccomp();

/**
 * x86_64 system calls a sandbox might try, with arguments that do nothing harmful when allowed. The
 * container prints, for each, 0 or the errno it got; then its status lines; then waits on stdin.
 */
const PROBE = String.raw`
import ctypes, json, sys
libc = ctypes.CDLL(None, use_errno=True)
calls = {
  "unshare(CLONE_NEWUSER)": (272, 0x10000000), "unshare(CLONE_NEWNS)": (272, 0x20000),
  "mount": (165, 0, 0, 0, 0, 0), "umount2": (166, 0, 0), "keyctl": (250, 0, 0), "add_key": (248, 0, 0, 0, 0, 0),
  "request_key": (249, 0, 0, 0, 0), "ptrace(PTRACE_ATTACH, 999999)": (101, 16, 999999, 0, 0), "bpf": (321, 0, 0, 0),
  "perf_event_open": (298, 0, 0, 0, 0, 0), "setns": (308, -1, 0), "chroot": (161, 0), "pivot_root": (155, 0, 0),
  "init_module": (175, 0, 0, 0), "kexec_load": (246, 0, 0, 0, 0), "reboot": (169, 0, 0, 0, 0),
  "swapon": (167, 0, 0), "acct": (163, 0), "syslog": (103, 0, 0, 0), "userfaultfd": (323, 0),
  "open_by_handle_at": (304, -1, 0, 0), "clone3": (435, 0, 0), "getpid": (39,), "personality(0xffffffff)": (135, 0xffffffff),
}
result = {}
for name, call in calls.items():
    ctypes.set_errno(0)
    got = libc.syscall(*[ctypes.c_long(arg) for arg in call])
    result[name] = ctypes.get_errno() if got == -1 else 0
status = dict(line.split(":\t", 1) for line in open("/proc/self/status").read().splitlines() if ":\t" in line)
print(json.dumps({"calls": result, "seccomp": status["Seccomp"].strip(), "noNewPrivs": status["NoNewPrivs"].strip()}), flush=True)
sys.stdin.read()
`;

interface ProbeAnswer {
  calls: Record<string, number>;
  seccomp: string;
  noNewPrivs: string;
}

let work: string;
let rootfs: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'oci-seccomp-'));
  const prepared = await prepareRootfs(connectDocker('/var/run/docker.sock'), 'code-runner-python:latest', ROOTFS_DIR, {
    'code-runner.sandbox': 'oci-seccomp-test',
  });
  rootfs = prepared.dir;
}, 120_000);

const CGROUP = '/code-runner-oci-seccomp-test';

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await removeCgroups(CGROUP);
});

/** Runs PROBE in a container of the driver's spec; returns its answer and the filter the kernel holds for it. */
async function probeContainer(
  seccompBpf: string | undefined,
  withFilter = true,
): Promise<{ answer: ProbeAnswer; installed: string | undefined }> {
  const id = `oci-seccomp-test-${randomBytes(6).toString('hex')}`;
  const state = path.join(work, 'state');
  const bundle = path.join(work, id);
  mkdirSync(bundle, { recursive: true });
  const spec = ociSpec({
    rootfs,
    image: {
      env: ['PATH=/usr/local/bin:/usr/bin:/bin'],
      workingDir: '/tmp',
      entrypoint: ['python3', '-I', '-S', '-B', '-c', PROBE],
      cmd: [],
    },
    limits: LIMITS,
    runtime: 'crun',
    env: [],
    cgroupsPath: `${CGROUP}/${id}`,
    seccomp: withFilter ? SECCOMP : undefined,
    seccompBpf,
  });
  writeFileSync(path.join(bundle, 'config.json'), JSON.stringify(spec));
  const child = spawn(CRUN, ['--root', state, 'run', '--bundle', bundle, id], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    const line = await Promise.race([
      createInterface({ input: child.stdout })[Symbol.asyncIterator]().next(),
      closed.then((code) => Promise.reject(new Error(`crun exited ${code} before answering: ${stderr}`))),
    ]);
    if (line.done) throw new Error(`crun exited ${await closed} before answering: ${stderr}`);
    const answer = JSON.parse(String(line.value)) as ProbeAnswer;
    const { stdout } = await run(CRUN, ['--root', state, 'state', id]);
    const { pid } = JSON.parse(stdout) as { pid: number };
    const installed = withFilter ? (await run('python3', [READER, String(pid)])).stdout.trim() : undefined;
    return { answer, installed };
  } finally {
    child.stdin.end();
    await closed;
    await run(CRUN, ['--root', state, 'delete', '--force', id]).catch(() => undefined);
  }
}

describe.skipIf(!SECCOMP || process.getuid?.() !== 0 || !findExecutable('crun'))('seccomp filter compiled once (crun)', () => {
  let bpf = '';

  it('reads the program crun installs from the kernel, then takes it from the cache', async () => {
    const input = {
      runtimeBinary: CRUN,
      seccomp: SECCOMP!,
      rootfs,
      limits: LIMITS,
      cacheDir: path.join(work, 'cache'),
      cgroupsPath: `${CGROUP}/probe`,
    };
    const first = await compiledSeccompFilter(input);
    expect(first, JSON.stringify(first)).toHaveProperty('bpf');
    if (!('bpf' in first)) return;
    expect(first.cached).toBe(false);
    expect(Buffer.from(first.bpf, 'base64').length % 8).toBe(0);
    const second = await compiledSeccompFilter(input);
    expect(second).toEqual({ bpf: first.bpf, cached: true });
    const [file] = readdirSync(input.cacheDir);
    writeFileSync(path.join(input.cacheDir, file), 'cut');
    expect(await compiledSeccompFilter(input), 'a damaged cache file is compiled again').toEqual({ bpf: first.bpf, cached: false });
    bpf = first.bpf;
  }, 60_000);

  it('a container given the program holds it byte for byte and refuses what a compiling one refuses', async () => {
    expect(bpf, 'the first test compiled nothing').not.toBe('');
    const compiling = await probeContainer(undefined);
    const given = await probeContainer(bpf);
    expect(compiling.installed, 'crun compiled another program than the cached one').toBe(bpf);
    expect(given.installed, 'the container holds another program than the one given').toBe(bpf);
    expect(given.answer.seccomp).toBe('2');
    expect(given.answer.noNewPrivs).toBe('1');
    expect(given.answer.calls).toEqual(compiling.answer.calls);
    const EPERM = 1;
    for (const name of ['unshare(CLONE_NEWUSER)', 'unshare(CLONE_NEWNS)', 'mount', 'keyctl', 'add_key', 'bpf', 'setns', 'init_module'])
      expect(given.answer.calls[name], `${name}: ${JSON.stringify(given.answer.calls)}`).toBe(EPERM);
    expect(given.answer.calls['clone3'], 'clone3 is answered ENOSYS').toBe(38);
    expect(given.answer.calls['getpid']).toBe(0);
    // The list tells a filtered container from one without a filter: most of these answer otherwise.
    const unfiltered = await probeContainer(undefined, false);
    expect(unfiltered.answer.seccomp).toBe('0');
    const differing = Object.keys(given.answer.calls).filter((name) => given.answer.calls[name] !== unfiltered.answer.calls[name]);
    expect(differing.length, JSON.stringify(unfiltered.answer.calls)).toBeGreaterThanOrEqual(15);
  }, 60_000);

  it('crun refuses to start a container whose program is not valid BPF (never one without a filter)', async () => {
    await expect(probeContainer(Buffer.alloc(8).toString('base64'))).rejects.toThrow(/crun exited 1 .*seccomp/s);
  }, 60_000);
});
