// The oci driver's cgroups with the real crun (soak findings, session 7): a `crun run` killed before
// its cleanup must not leave the container's cgroup behind, and an OOM kill elsewhere on the host
// must not make another sandbox's SIGKILL read as "out of memory".
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OciEngine } from '../../src/core/sandbox/oci/oci-engine.js';
import type { OciSandbox } from '../../src/core/sandbox/oci/oci-sandbox.js';
import { encodeJob } from '../../src/core/execute/run-job.js';
import { startTestOciEngine } from '../support/oci-engine.js';
import { eventually } from '../support/eventually.js';
import { instanceCgroup } from '../../src/core/sandbox/container-cgroup.js';

const CGROUP_ROOT = '/sys/fs/cgroup';
const instance = `h8cg-${process.pid}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oci-cgroups-'));
let engine: OciEngine;

/** The cgroup directories named `id` under the instance's cgroup, in every hierarchy (v1 controllers and the v2 root). */
function cgroupsOf(id: string): string[] {
  const hierarchies = [CGROUP_ROOT, ...readdirSync(CGROUP_ROOT).map((entry) => path.join(CGROUP_ROOT, entry))];
  return hierarchies.map((h) => path.join(h, instanceCgroup(instance), id)).filter((dir) => existsSync(dir));
}

/** This process's children whose command line contains every one of `parts` (NUL-separated arguments). */
function childrenWith(...parts: string[]): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // the runtime's own forks carry the same command line until they exec
        const parent = Number(readFileSync(`/proc/${entry}/stat`, 'latin1').split(') ')[1].split(' ')[1]);
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
        return parent === process.pid && parts.every((part) => cmdline.includes(part));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Live host processes in the container's cgroup (its init, the harness, among them); a zombie waiting for its reaper is none. */
function containerProcesses(id: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const state = readFileSync(`/proc/${entry}/stat`, 'latin1').split(') ')[1][0];
        return (
          state !== 'Z' && state !== 'X' && readFileSync(`/proc/${entry}/cgroup`, 'utf8').includes(`${instanceCgroup(instance)}/${id}`)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** How a sandbox whose runtime process is gone ended, as far as it says within a second: its harness's early output, its exit. */
async function howItEnded(sandbox: OciSandbox): Promise<string> {
  const within = <T>(promise: Promise<T>) =>
    Promise.race([promise, new Promise<string>((resolve) => setTimeout(() => resolve('(nothing within 1 s)'), 1_000))]);
  const ready = await within(
    sandbox.ready.then(
      (version) => `ready (${version})`,
      (error: Error) => error.message,
    ),
  );
  const exit = await within(
    sandbox.exited.then(
      (info) => JSON.stringify(info),
      (error: Error) => error.message,
    ),
  );
  return `ready: ${ready}; exited: ${exit}`;
}

/**
 * The sandbox's `crun run` process. crun executes itself again from a sealed copy of its binary
 * (a memfd, against CVE-2019-5736) as it starts; while that exec is under way its command line
 * reads empty, a window a loaded machine widens (a CI run found none), so it is looked for again.
 */
async function runtimeProcessOf(sandbox: OciSandbox): Promise<number[]> {
  let pids: number[] = [];
  await eventually(() => (pids = childrenWith('run\0--bundle', sandbox.id)).length > 0, 2_000, 2);
  return pids;
}

/** SIGKILLs the sandbox's `crun run` process from outside, as the kernel or an operator could. */
async function killRuntimeProcess(sandbox: OciSandbox): Promise<void> {
  const pids = await runtimeProcessOf(sandbox);
  if (pids.length !== 1) expect.fail(`the crun run process of ${sandbox.id}: found ${pids.length}; ${await howItEnded(sandbox)}`);
  process.kill(pids[0], 'SIGKILL');
}

beforeAll(async () => {
  engine = await startTestOciEngine(instance, dataDir);
}, 180_000);

afterAll(async () => {
  await engine?.removeAll();
  rmSync(dataDir, { recursive: true, force: true });
  expect(cgroupsOf(''), "the instance's cgroup is gone after removeAll").toEqual([]);
});

it('leaves no container cgroup when the runtime process is SIGKILLed while it creates the container or while it runs', async () => {
  const held = await engine.startSandbox('python');
  const left: string[] = [];
  // From the fork to a running harness: without the fix most of these left the container's cgroup, empty.
  for (const delayMs of [0, 1, 2, 5, 10, 20, 40, 80]) {
    for (const interpreter of ['python', 'node'] as const) {
      const sandbox = await engine.startSandbox(interpreter);
      const startedAt = Date.now();
      while (Date.now() - startedAt < delayMs) await new Promise((resolve) => setImmediate(resolve));
      await killRuntimeProcess(sandbox);
      await sandbox.exited.catch(() => undefined);
      await sandbox.dispose();
      const cgroups = cgroupsOf(sandbox.id);
      const processes = containerProcesses(sandbox.id);
      if (cgroups.length + processes.length > 0)
        left.push(`${interpreter}, killed ${delayMs} ms after start: cgroups ${cgroups.join(' ')}; processes ${processes.join(' ')}`);
    }
  }
  const running = await engine.startSandbox('node');
  await running.ready;
  await killRuntimeProcess(running);
  await running.exited;
  await running.dispose();
  if (cgroupsOf(running.id).length > 0) left.push(`node, killed when ready: ${cgroupsOf(running.id).join(' ')}`);
  await held.ready;
  expect(left, 'left after dispose').toEqual([]);

  // an empty cgroup as a runtime killed before its cleanup leaves it (what the soak found), left by an earlier start
  const orphan = `${instance}-0123456789abcdef`;
  const hierarchies = cgroupsOf('').map((dir) => path.dirname(dir));
  for (const hierarchy of hierarchies) mkdirSync(path.join(hierarchy, instanceCgroup(instance), orphan, 'runtime'), { recursive: true });
  await engine.sweep();
  expect(cgroupsOf(orphan), 'the orphan cgroups the sweep left').toEqual([]);
  expect(cgroupsOf(held.id).length, "the held sandbox's cgroups are kept").toBeGreaterThan(0);
  expect(held.isAlive).toBe(true);

  await engine.removeAll();
  expect(cgroupsOf(''), "the instance's cgroup after removeAll").toEqual([]);
}, 60_000);

it('calls out of memory only the sandbox that ran out of its own memory, not one SIGKILLed beside it', async () => {
  const vmstatOomKills = () => Number(/^oom_kill (\d+)$/m.exec(readFileSync('/proc/vmstat', 'utf8'))?.[1] ?? 0);
  const [victim, bomb] = await Promise.all([engine.startSandbox('python'), engine.startSandbox('python')]);
  await Promise.all([victim.ready, bomb.ready]);
  const oomKillsBefore = vmstatOomKills();
  const code = 'blocks = []\nwhile True:\n    blocks.append(bytearray(1 << 20))\n';
  bomb.send('bomb', encodeJob({ code, filename: 'solution.py', target: { names: ['f'] }, cases: [], stdoutCap: 1_000 }, 'bomb'));
  const bombExit = await bomb.exited;
  expect(vmstatOomKills(), 'the host counted the OOM kill').toBeGreaterThan(oomKillsBefore);
  // any other SIGKILL of the victim's init from the host (another OOM killer, an operator), after the bomb's
  const victimProcesses = containerProcesses(victim.id);
  expect(victimProcesses.length, 'processes in the victim container').toBeGreaterThan(0);
  for (const pid of victimProcesses) process.kill(pid, 'SIGKILL');
  const victimExit = await victim.exited;
  await Promise.all([victim.dispose(), bomb.dispose()]);
  const summary = `bomb ${JSON.stringify(bombExit)}, victim ${JSON.stringify(victimExit)}`;
  expect(bombExit, summary).toMatchObject({ statusCode: 137, oomKilled: true, killedByHost: false });
  expect(victimExit, summary).toMatchObject({ statusCode: 137, oomKilled: false, killedByHost: false });
}, 60_000);
