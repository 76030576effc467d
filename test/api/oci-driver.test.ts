// The oci sandbox driver (SANDBOX_DRIVER=oci): the same executions as through Docker, the
// isolation checked from inside a sandbox, and nothing left behind after close or after a crash.
import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OciEngine, ociLayout } from '../../src/core/sandbox/oci/oci-engine.js';
import { findExecutable, RuntimeCli } from '../../src/core/sandbox/oci/runtime-cli.js';
import { connectDocker } from '../../src/core/sandbox/engine.js';
import { startService, type Service } from '../../src/service.js';
import { execute, isolatedEnv } from '../support/service.js';
import { instanceCgroupsLeft } from '../support/cgroups.js';
import { hostProcessesWith } from '../support/host-processes.js';

const BUDGET_MS = 5_000;
/** Shared by the test files that use the oci driver, so the runner images are unpacked once. */
const ROOTFS_DIR = path.join(os.tmpdir(), 'code-runner-oci-rootfs');
const LIMITS = { memoryMb: 256, cpus: 1, pids: 64, tmpfsMb: 64, nofile: 256, fsizeMb: 32 };
const oneCase = [{ args: { x: 1 }, expected: 1 }];

/** What an instance could leave: containers in its state directory, bundles, runtime processes, cgroups. */
async function leftovers(dataDir: string, instance: string): Promise<Record<string, number>> {
  const layout = ociLayout(dataDir, instance, ROOTFS_DIR);
  const crun = new RuntimeCli('crun', findExecutable('crun') ?? 'crun', layout.state);
  return {
    containers: existsSync(layout.state) ? (await crun.list()).length : 0,
    bundles: existsSync(layout.bundles) ? readdirSync(layout.bundles).length : 0,
    processes: hostProcessesWith(layout.state).length,
    cgroups: instanceCgroupsLeft(instance).length,
  };
}

const NOTHING_LEFT = { containers: 0, bundles: 0, processes: 0, cgroups: 0 };

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

describe('the oci driver through the service', () => {
  let service: Service;
  const env: Record<string, string> = {
    ...isolatedEnv(),
    SANDBOX_DRIVER: 'oci',
    SANDBOX_ROOTFS_DIR: ROOTFS_DIR,
    EXECUTION_TIMEOUT_MS: String(BUDGET_MS),
  };

  beforeAll(async () => {
    service = await startService({
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      POOL_MIN_PYTHON: '1',
      POOL_MIN_NODE: '1',
      ADMIN_ENDPOINT: 'false',
      ...env,
    });
  });
  afterAll(async () => {
    try {
      await service?.close();
      expect(await leftovers(env.DATA_DIR, env.SANDBOX_INSTANCE), 'left after close').toEqual(NOTHING_LEFT);
    } finally {
      rmSync(env.DATA_DIR, { recursive: true, force: true });
    }
  });

  it('reports the driver and its runtime as ready, and the languages with their versions', async () => {
    expect(service.runner.ociRuntime).toBe('crun');
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: unknown }).checks).toEqual({
      'driver:oci': 'ok',
      'runtime:crun': 'ok',
      'rootfs:python': 'ok',
      'rootfs:node': 'ok',
    });
    const languages = (await (await fetch(`${service.url}/api/v1/code/languages`)).json()) as {
      data: Array<{ version: string }>;
      sandbox: { driver: string; ociRuntime: string };
    };
    expect(languages.sandbox).toEqual({ driver: 'oci', ociRuntime: 'crun' });
    expect(languages.data.map((l) => l.version)).toEqual([
      expect.stringMatching(/^Python 3/),
      expect.stringMatching(/^Node /),
      expect.stringMatching(/^Node /),
    ]);
  });

  it('runs correct code in every language', async () => {
    const cases = [
      { args: { a: 1, b: 2 }, expected: 3 },
      { args: { a: 'x', b: 'y' }, expected: 'xy' },
    ];
    const bodies = [
      { language: 'python', code: 'def add(a, b):\n    return a + b\n' },
      { language: 'javascript', code: 'function add(a, b) { return a + b; }' },
      { language: 'typescript', code: 'function add(a: any, b: any): any { return a + b; }' },
    ];
    for (const body of bodies) {
      const reply = await execute(service, { ...body, testCases: cases });
      expect(reply.status, body.language).toBe(200);
      expect(reply.body.results?.map((r) => [r.passed, r.error])).toEqual([
        [true, null],
        [true, null],
      ]);
    }
  });

  it('reports wrong answers and exceptions as results', async () => {
    const wrong = await execute(service, {
      language: 'python',
      code: 'def f(x):\n    print("hi")\n    return x + 1\n',
      testCases: oneCase,
    });
    expect(wrong.body.results?.[0]).toMatchObject({ passed: false, actual: 2, error: null, stdout: 'hi\n' });
    const thrown = await execute(service, {
      language: 'javascript',
      code: 'function f(x) {\n  throw new RangeError("no");\n}',
      testCases: oneCase,
    });
    expect(thrown.body.results?.[0]).toMatchObject({ passed: false, error: 'RangeError: no (line 2)' });
  });

  it('kills an endless loop from the host at the budget', async () => {
    const started = Date.now();
    const reply = await execute(service, { language: 'python', code: 'def f(x):\n    while True:\n        pass\n', testCases: oneCase });
    expect(reply.status).toBe(408);
    expect(reply.body.results?.[0].error).toBe('timed out');
    expect(Date.now() - started).toBeLessThan(BUDGET_MS + 1_000);
  });

  it('reports a memory hog as over the memory limit, finished cases kept', async () => {
    const code =
      'def f(x):\n    if x == 2:\n        blocks = []\n        while True:\n            blocks.append(bytearray(1 << 20))\n    return x\n';
    const reply = await execute(service, {
      language: 'python',
      code,
      testCases: [1, 2].map((x) => ({ args: { x }, expected: x })),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.results?.map((r) => r.error)).toEqual([null, 'memory limit exceeded (256 MB)']);
    const js = await execute(service, {
      language: 'javascript',
      code: 'function f(x) { const b = []; for (;;) b.push(Buffer.alloc(1 << 20, 1)); }',
      testCases: oneCase,
    });
    expect(js.body.results?.[0].error).toBe('memory limit exceeded (256 MB)');
  });

  it('contains a fork bomb at the pids limit and leaves no process behind', async () => {
    const code =
      'import os, time\ndef f(x):\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            time.sleep(0.01)\n';
    const reply = await execute(service, { language: 'python', code, testCases: oneCase });
    expect([200, 408]).toContain(reply.status);
    expect(reply.body.results?.[0].passed).toBe(false);
    const after = await execute(service, { language: 'python', code: 'def f(x):\n    return x\n', testCases: oneCase });
    expect(after.body.results?.[0]).toMatchObject({ passed: true, error: null });
  });

  it('isolates the sandbox: uid 10001, no capabilities, no_new_privs, seccomp, read-only root, noexec /tmp, only lo', async () => {
    const code = `import ctypes, os, socket, subprocess
def f(x):
    status = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if ":" in l)
    out = {k: status[k].strip() for k in ("Uid", "Gid", "CapEff", "CapPrm", "CapBnd", "NoNewPrivs", "Seccomp")}
    out["interfaces"] = sorted(name for _, name in socket.if_nameindex())
    try:
        open("/usr/pwned", "w")
        out["root"] = "writable"
    except OSError as e:
        out["root"] = e.strerror
    with open("/tmp/run.sh", "w") as fh:
        fh.write("#!/bin/sh\\necho ran\\n")
    os.chmod("/tmp/run.sh", 0o755)
    try:
        subprocess.run(["/tmp/run.sh"])
        out["tmp exec"] = "allowed"
    except OSError as e:
        out["tmp exec"] = e.strerror
    libc = ctypes.CDLL(None, use_errno=True)
    out["unshare"] = 0 if libc.unshare(0x10000000) == 0 else ctypes.get_errno()
    out["home"] = os.environ["HOME"]
    return out
`;
    const reply = await execute(service, { language: 'python', code, testCases: [{ args: { x: 1 }, expected: null }] });
    expect(reply.body.results?.[0].error).toBeNull();
    expect(reply.body.results?.[0].actual).toMatchObject({
      Uid: '10001\t10001\t10001\t10001',
      Gid: '10001\t10001\t10001\t10001',
      CapEff: '0000000000000000',
      CapPrm: '0000000000000000',
      CapBnd: '0000000000000000',
      NoNewPrivs: '1',
      Seccomp: '2',
      interfaces: ['lo'],
      root: 'Read-only file system',
      'tmp exec': 'Permission denied',
      unshare: 1,
      home: '/tmp',
    });
    // its namespaces are not the host's (the service's) ones
    const hostNs = ['pid', 'net', 'ipc', 'uts', 'mnt'].map((n) => readlinkSync(`/proc/self/ns/${n}`));
    const probe = await execute(service, {
      language: 'python',
      code: 'import os\ndef f(x):\n    return [os.readlink("/proc/self/ns/" + n) for n in ("pid", "net", "ipc", "uts", "mnt")]\n',
      testCases: [{ args: { x: 1 }, expected: null }],
    });
    const inside = probe.body.results?.[0].actual as string[];
    inside.forEach((ns, i) => expect(ns, ns).not.toBe(hostNs[i]));
  });
});

describe('the oci driver after a crash', () => {
  it('a new engine on the same state directory removes the containers and bundles the old one left', async () => {
    const { DATA_DIR: dataDir, SANDBOX_INSTANCE: instance } = isolatedEnv();
    const settings = {
      images: { python: 'code-runner-python:latest', node: 'code-runner-node:latest' },
      instance,
      limits: LIMITS,
      ociRuntime: 'crun' as const,
      dataDir,
      rootfsDir: ROOTFS_DIR,
    };
    const docker = connectDocker('/var/run/docker.sock');
    try {
      const first = await OciEngine.start(docker, settings);
      // started and abandoned, as by a service that was SIGKILLed
      const abandoned = await Promise.all([first.startSandbox('python'), first.startSandbox('node')]);
      await Promise.all(abandoned.map((sandbox) => sandbox.ready));
      expect((await leftovers(dataDir, instance)).containers).toBe(2);
      const second = await OciEngine.start(docker, settings);
      expect(await eventually(async () => (await leftovers(dataDir, instance)).processes === 0, 5_000)).toBe(true);
      await second.removeAll();
      expect(await leftovers(dataDir, instance)).toEqual(NOTHING_LEFT);
      await Promise.all(abandoned.map((sandbox) => sandbox.exited));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
