/**
 * `node --import tsx bench/startup.ts`: what one start of each runtime and of its harness costs,
 * bare and in a container of the oci driver's bundle config (crun), with and without the start-up
 * cuts of the runner images (harness bytecode for Python, a V8 startup snapshot for Node) and with
 * and without the seccomp filter (a measurement in throwaway bundles; the driver always sets it).
 * Each start runs to its end: a harness gets an empty job line and exits at once. Writes
 * bench/results/startup.{md,json} (docs/performance.md, "Start-up").
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Docker from 'dockerode';
import { loadConfig } from '../src/config.js';
import type { Interpreter } from '../src/core/languages.js';
import { runnerSettings } from '../src/service.js';
import { imageStartCommands } from '../test/harness/image-start.js';
import { processCpu } from './cpu-counters.js';
import { ociRootfsDir, startInOci, startOciEngine, type OciRunOptions } from './targets/oci.js';

const RUNS = Number(process.env.STARTUP_RUNS ?? 30);
const config = loadConfig();
const settings = runnerSettings(config);

interface Case {
  runtime: string;
  where: string;
  what: string;
  start: () => Promise<void>;
}
interface Start {
  runtime: string;
  where: string;
  what: string;
  medianMs: number;
  cpuMs: number;
}
const cases: Case[] = [];
let results: Start[] = [];
const add = (runtime: string, where: string, what: string, start: () => Promise<void>) => cases.push({ runtime, where, what, start });

/**
 * Every case RUNS times, one start at a time, in rounds of a few starts of each case in turn, so that
 * a change of the shared machine's load during the run falls on all of them alike: the median wall
 * time of one start, and the mean CPU of every process it started and reaped (the runtime, the
 * container's processes under it).
 */
async function measureAll(): Promise<Start[]> {
  const perRound = 3;
  const walls = cases.map((): number[] => []);
  const cpu = cases.map(() => 0);
  for (const c of cases) for (let i = 0; i < 2; i += 1) await c.start();
  for (let round = 0; round * perRound < RUNS; round += 1) {
    for (const [k, c] of cases.entries()) {
      const before = processCpu(process.pid).childrenMs;
      for (let i = 0; i < perRound; i += 1) {
        const t0 = performance.now();
        await c.start();
        walls[k].push(performance.now() - t0);
      }
      cpu[k] += processCpu(process.pid).childrenMs - before;
    }
  }
  return cases.map((c, k) => {
    const sorted = walls[k].sort((a, b) => a - b);
    return {
      runtime: c.runtime,
      where: c.where,
      what: c.what,
      medianMs: sorted[Math.floor(sorted.length / 2)],
      cpuMs: cpu[k] / sorted.length,
    };
  });
}

/** One bare process to its end; a harness reads an empty job line and exits with 2. */
function bare(command: string[], env: NodeJS.ProcessEnv = process.env): () => Promise<void> {
  return () =>
    new Promise((resolve, reject) => {
      const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'ignore', 'ignore'], env });
      child.on('error', reject);
      // a command that does not read its stdin may be gone before the line is written
      child.stdin.on('error', () => undefined);
      child.on('close', () => resolve());
      child.stdin.end('\n');
    });
}

const real = (command: string, probe: string[]) => execFileSync(command, probe, { encoding: 'utf8' }).trim();
const python = real('python3', ['-c', 'import sys; print(sys.executable)']);
const node = process.execPath;

// the bare floors with the same cuts as the images
const cut = imageStartCommands(python, node);
const bareEnv = { ...process.env, NODE_OPTIONS: '' };

add('python', 'bare', '`python3 -I -S -B -c pass`', bare([python, '-I', '-S', '-B', '-c', 'pass']));
add('python', 'bare', 'harness from source', bare([python, '-I', '-S', '-B', 'runners/python/harness.py']));
add('python', 'bare', 'harness from bytecode', bare(cut.python));
add('node', 'bare', '`node -e 0`', bare([node, '-e', '0'], bareEnv));
add('node', 'bare', 'harness from source', bare([node, 'runners/node/harness.cjs'], bareEnv));
add('node', 'bare', 'harness from a snapshot', bare(cut.node, bareEnv));

const docker = new Docker({ socketPath: config.DOCKER_SOCKET });
const oci = await startOciEngine(
  docker,
  settings.images,
  settings.limits,
  'auto',
  ociRootfsDir(config.DATA_DIR, config.SANDBOX_ROOTFS_DIR),
);
try {
  const rootfs = (interpreter: Interpreter) => oci.engine.rootfsDir(interpreter);
  // The heap limit the host sets for Node under the default sandbox memory, which the image's blob was built for.
  const nodeEnv = [`NODE_OPTIONS=${readFileSync(path.join(rootfs('node'), 'opt/runner/harness.blob.options'), 'utf8').trim()}`];
  /** One container of the driver's config to its end; `command` undefined runs the image's own entry point. */
  const inOci =
    (interpreter: Interpreter, command: string[] | undefined, options: OciRunOptions = {}): (() => Promise<void>) =>
    async () => {
      const sandbox = await startInOci(oci.engine, interpreter, command, {
        ...options,
        env: interpreter === 'node' ? nodeEnv : [],
      });
      try {
        sandbox.send('startup', '\n');
        await sandbox.exited;
      } finally {
        await sandbox.dispose();
      }
    };
  // The image's own interpreter without a container (chroot into the unpacked image: no namespaces,
  // cgroup or seccomp): what differs from bare because the interpreter's build differs.
  const chroot = (interpreter: Interpreter, command: string[], env: string[] = []) =>
    bare(
      ['/usr/sbin/chroot', rootfs(interpreter), ...command],
      Object.fromEntries(['PATH=/usr/bin:/bin', ...env].map((e) => e.split(/=(.*)/s, 2))),
    );
  add('python', "image's interpreter, chroot", '`python3 -I -S -B -c pass`', chroot('python', ['python3', '-I', '-S', '-B', '-c', 'pass']));
  add('node', "image's interpreter, chroot", '`node -e 0`', chroot('node', ['node', '-e', '0'], nodeEnv));
  const where = 'oci (crun)';
  add('-', where, '`true` (the runtime alone)', inOci('python', ['/bin/true']));
  add('-', `${where}, no seccomp`, '`true` (the runtime alone)', inOci('python', ['/bin/true'], { seccomp: false }));
  add('python', where, '`python3 -I -S -B -c pass`', inOci('python', ['python3', '-I', '-S', '-B', '-c', 'pass']));
  add(
    'python',
    `${where}, no seccomp`,
    '`python3 -I -S -B -c pass`',
    inOci('python', ['python3', '-I', '-S', '-B', '-c', 'pass'], { seccomp: false }),
  );
  add('python', where, 'harness from source (before)', inOci('python', ['python3', '-I', '-S', '-B', '/opt/runner/harness.py']));
  add('python', where, 'image entry point (after)', inOci('python', undefined));
  add('node', where, '`node -e 0`', inOci('node', ['node', '-e', '0']));
  add('node', `${where}, no seccomp`, '`node -e 0`', inOci('node', ['node', '-e', '0'], { seccomp: false }));
  add('node', where, 'harness from source (before)', inOci('node', ['node', '/opt/runner/harness.cjs']));
  add('node', where, 'image entry point (after)', inOci('node', undefined));
  results = await measureAll();
} finally {
  await oci.stop();
}

const fmt = (n: number) => n.toFixed(1);
const table = [
  `Machine: ${os.cpus().length} cores, ${os.type()} ${os.release()}, Node ${process.version}; ${RUNS} starts each, one at a time`,
  `Load (1, 5, 15 min) at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}; images ${settings.images.python}, ${settings.images.node}`,
  '',
  '| runtime | where | what | median ms per start | CPU ms per start |',
  '|---|---|---|---:|---:|',
  ...results.map((r) => `| ${r.runtime} | ${r.where} | ${r.what} | ${fmt(r.medianMs)} | ${fmt(r.cpuMs)} |`),
].join('\n');
process.stdout.write(`${table}\n`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/startup.json', `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, results }, null, 2)}\n`);
writeFileSync('bench/results/startup.md', `${table}\n`);
